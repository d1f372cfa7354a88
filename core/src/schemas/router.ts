import { z } from 'zod';
import { NextCursor, Sha256Hex, Timestamp } from './common.js';
import { JobStatus, JobType, NodeClass } from './enums.js';
import { EmailAddress } from './identity.js';

/**
 * Wire schemas of the router API v0.1 (docs/design.md#router). Requests are strict, except that quote
 * and job creation accept and ignore a caller-supplied `rate` or `hourly_rate`: rates are server constants.
 */

const Name = z.string().trim().min(1).max(200);
const Money = z.string().regex(/^\d+\.\d{2}$/, 'a decimal string with 2 places');
const Currency = z.literal('USD');
/** A router id: a short tag, `_`, and 26 base32 characters. */
const RouterId = z.string().min(1).max(64);
/** Hours as a number or a plain decimal string; core checks 0 < hours ≤ 8760 and the format. */
const Hours = z.union([z.number(), z.string().max(40)]);
/** Free-form JSON object handed to or returned by a worker. */
const JsonObject = z.record(z.string(), z.unknown());
/** Accepted on quote and job creation and then ignored (docs/design.md#router). */
const IgnoredRate = z.unknown().optional();
const LeaseToken = z.string().min(1).max(256);
const Count = z.number().int().nonnegative();

export const MemberStatus = z.enum(['active', 'inactive']);
/** Created `ready`, or `pending` with `staging: true`; the internal stage route moves it on. */
export const DatasetStatus = z.enum(['pending', 'staging', 'ready', 'failed']);
/** What a payment webhook event did: only a paid membership at the right price activates. */
export const PaymentOutcome = z.enum([
  'activated',
  'ignored_type',
  'unknown_member',
  'amount_mismatch',
]);
export const NodeStatus = z.enum(['available']);

// Responses

export const RouterHealth = z.object({ ok: z.literal(true), version: z.literal('0.1') });

/** `status` is computed from the clock: a member whose expires_at has passed reads as inactive. */
export const RouterMember = z.object({
  member_id: z.string(),
  email: z.string(),
  name: z.string(),
  status: MemberStatus,
  activated_at: Timestamp.nullable(),
  expires_at: Timestamp.nullable(),
  created_at: Timestamp,
});

export const MemberActivated = z.object({
  member_id: z.string(),
  status: z.literal('active'),
  activated_at: Timestamp,
  expires_at: Timestamp,
  amount: Money,
  currency: Currency,
  receipt_id: z.string(),
});

export const RouterMemberStatus = z.object({
  member_id: z.string(),
  status: MemberStatus,
  active: z.boolean(),
  expires_at: Timestamp.nullable(),
});

export const Dataset = z.object({
  dataset_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  status: DatasetStatus,
  /** Why staging failed; null unless status is failed. */
  error: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const DatasetList = z.object({ datasets: z.array(Dataset), next: NextCursor });

export const DatasetAccess = z.object({
  dataset_id: z.string(),
  member_id: z.string(),
  receipt_id: z.string(),
  granted_at: Timestamp,
});

export const ComputeNode = z.object({
  node_id: z.string(),
  name: z.string(),
  node_class: NodeClass,
  status: NodeStatus,
  created_at: Timestamp,
});

export const NodeClassInfo = z.object({
  node_class: NodeClass,
  hourly_rate: Money,
  currency: Currency,
  nodes: z.number().int().nonnegative(),
  workers: z.number().int().nonnegative(),
});

export const ComputeInventory = z.object({
  node_classes: z.array(NodeClassInfo),
  nodes: z.array(ComputeNode),
});

export const ComputeQuote = z.object({
  quote_id: z.string(),
  member_id: z.string(),
  node_class: NodeClass,
  hours: z.number(),
  hourly_rate: Money,
  amount: Money,
  currency: Currency,
  receipt_id: z.string(),
  created_at: Timestamp,
});

export const JobArtifact = z.object({
  name: z.string(),
  uri: z.string(),
  sha256: Sha256Hex.nullable(),
  size: z.number().int().nonnegative().nullable(),
  reported_at: Timestamp,
});

/**
 * A job. `cost` (and `billed_seconds`) are set by completion: accepted-to-completed whole seconds
 * × the class rate, half-up to cents. `worker_id` and `lease_expires_at` describe the current lease.
 */
export const RouterJob = z.object({
  job_id: z.string(),
  member_id: z.string(),
  type: JobType,
  status: JobStatus,
  node_class: NodeClass,
  hours: z.number(),
  hourly_rate: Money,
  estimated_amount: Money,
  currency: Currency,
  attempt: z.number().int().positive(),
  max_attempts: z.number().int().positive(),
  input: JsonObject.nullable(),
  worker_id: z.string().nullable(),
  lease_expires_at: Timestamp.nullable(),
  progress: z.number().nullable(),
  message: z.string().nullable(),
  log_lines: z.number().int().nonnegative(),
  artifacts: z.array(JobArtifact),
  result: JsonObject.nullable(),
  error: z.string().nullable(),
  cost: Money.nullable(),
  billed_seconds: z.number().int().nonnegative().nullable(),
  created_at: Timestamp,
  accepted_at: Timestamp.nullable(),
  finished_at: Timestamp.nullable(),
  updated_at: Timestamp,
});

/** The plaintext worker_token is returned here once; only its SHA-256 is stored. */
export const WorkerRegistered = z.object({
  worker_id: z.string(),
  worker_token: z.string(),
  name: z.string(),
  node_class: NodeClass,
  created_at: Timestamp,
});

/** A worker as admins see it: never a token or a hash. */
export const RouterWorker = z.object({
  worker_id: z.string(),
  name: z.string(),
  node_class: NodeClass,
  created_at: Timestamp,
  last_seen_at: Timestamp.nullable(),
  live_leases: z.number().int().nonnegative(),
});
export const RouterWorkerList = z.object({ workers: z.array(RouterWorker), next: NextCursor });

export const WorkerHeartbeat = z.object({
  worker_id: z.string(),
  last_seen_at: Timestamp,
  leases_renewed: z.number().int().nonnegative(),
});

/** The plaintext lease_token is returned here once; only its SHA-256 is stored. */
export const JobLease = z.object({
  job: RouterJob,
  lease_token: z.string(),
  lease_expires_at: Timestamp,
});

export const RouterSummary = z.object({
  members: z.object({
    active: z.number().int().nonnegative(),
    inactive: z.number().int().nonnegative(),
  }),
  datasets: z.number().int().nonnegative(),
  jobs: z.object({
    queued: Count,
    leased: Count,
    running: Count,
    completed: Count,
    failed: Count,
    canceled: Count,
  }),
  workers: z.number().int().nonnegative(),
  nodes: z.number().int().nonnegative(),
});

// Requests (strict: unknown keys are rejected)

export const MemberCreateBody = z.object({ email: EmailAddress, name: Name }).strict();
export const MemberActivateBody = z.object({}).strict();

export const DatasetCreateBody = z
  .object({
    name: Name,
    description: z.string().max(2000).optional(),
    staging: z.boolean().optional(),
  })
  .strict();
export const DatasetAccessBody = z.object({ member_id: RouterId }).strict();
/** Body of the internal `POST /internal/datasets/{dataset_id}/stage`; `error` only with `failed`. */
export const DatasetStageBody = z
  .object({
    status: z.enum(['staging', 'ready', 'failed']),
    error: z.string().trim().min(1).max(2000).optional(),
  })
  .strict();

/**
 * A payment processor's event (`POST /webhooks/payments`). Not strict, unlike our own bodies: the
 * processor may add fields, and the signature already vouches for the sender. member_id, amount
 * and currency matter only for `membership.paid`.
 */
export const PaymentEvent = z.object({
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(200),
  member_id: z.string().min(1).max(64).optional(),
  amount: z.string().max(40).optional(),
  currency: z.string().max(10).optional(),
});

/** The webhook's answer: 200 whenever the signature holds, so the processor stops retrying. */
export const PaymentReceived = z.object({
  received: z.literal(true),
  event_id: z.string(),
  /** True when this delivery repeats an event id already received: nothing happened this time. */
  duplicate: z.boolean(),
  /** True when this delivery activated a member. */
  processed: z.boolean(),
  outcome: PaymentOutcome,
  receipt_id: z.string().nullable(),
});

export const NodeRegisterBody = z.object({ name: Name, node_class: NodeClass }).strict();

export const QuoteBody = z
  .object({
    member_id: RouterId,
    node_class: NodeClass,
    hours: Hours,
    rate: IgnoredRate,
    hourly_rate: IgnoredRate,
  })
  .strict();

export const JobCreateBody = z
  .object({
    member_id: RouterId,
    type: JobType,
    node_class: NodeClass,
    hours: Hours,
    input: JsonObject.optional(),
    rate: IgnoredRate,
    hourly_rate: IgnoredRate,
  })
  .strict();
export const JobStartBody = z.object({}).strict();
export const JobManualCompleteBody = z.object({ result: JsonObject.optional() }).strict();
export const JobCancelBody = z.object({}).strict();

export const WorkerRegisterBody = z.object({ name: Name, node_class: NodeClass }).strict();
export const WorkerHeartbeatBody = z.object({}).strict();
export const WorkerLeaseBody = z.object({}).strict();
export const WorkerAcceptBody = z.object({ lease_token: LeaseToken }).strict();
export const WorkerStatusBody = z
  .object({
    lease_token: LeaseToken,
    progress: z.number().min(0).max(100).optional(),
    message: z.string().max(2000).optional(),
  })
  .strict();
export const WorkerLogsBody = z
  .object({
    lease_token: LeaseToken,
    lines: z.array(z.string().max(8192)).min(1).max(1000),
  })
  .strict();
export const ArtifactInput = z
  .object({
    name: z.string().min(1).max(500),
    uri: z.string().min(1).max(2000),
    sha256: Sha256Hex.optional(),
    size: z.number().int().nonnegative().optional(),
  })
  .strict();
export const WorkerArtifactsBody = z
  .object({ lease_token: LeaseToken, artifacts: z.array(ArtifactInput).min(1).max(100) })
  .strict();
export const WorkerCompleteBody = z
  .object({ lease_token: LeaseToken, result: JsonObject.optional() })
  .strict();
export const WorkerFailBody = z
  .object({ lease_token: LeaseToken, error: z.string().min(1).max(4000) })
  .strict();

export type MemberStatus = z.infer<typeof MemberStatus>;
export type DatasetStatus = z.infer<typeof DatasetStatus>;
export type PaymentOutcome = z.infer<typeof PaymentOutcome>;
export type NodeStatus = z.infer<typeof NodeStatus>;
export type RouterHealth = z.infer<typeof RouterHealth>;
export type RouterMember = z.infer<typeof RouterMember>;
export type MemberActivated = z.infer<typeof MemberActivated>;
export type RouterMemberStatus = z.infer<typeof RouterMemberStatus>;
export type Dataset = z.infer<typeof Dataset>;
export type DatasetList = z.infer<typeof DatasetList>;
export type DatasetAccess = z.infer<typeof DatasetAccess>;
export type ComputeNode = z.infer<typeof ComputeNode>;
export type NodeClassInfo = z.infer<typeof NodeClassInfo>;
export type ComputeInventory = z.infer<typeof ComputeInventory>;
export type ComputeQuote = z.infer<typeof ComputeQuote>;
export type JobArtifact = z.infer<typeof JobArtifact>;
export type RouterJob = z.infer<typeof RouterJob>;
export type WorkerRegistered = z.infer<typeof WorkerRegistered>;
export type RouterWorker = z.infer<typeof RouterWorker>;
export type RouterWorkerList = z.infer<typeof RouterWorkerList>;
export type WorkerHeartbeat = z.infer<typeof WorkerHeartbeat>;
export type JobLease = z.infer<typeof JobLease>;
export type RouterSummary = z.infer<typeof RouterSummary>;
export type MemberCreateBody = z.infer<typeof MemberCreateBody>;
export type DatasetCreateBody = z.infer<typeof DatasetCreateBody>;
export type DatasetAccessBody = z.infer<typeof DatasetAccessBody>;
export type DatasetStageBody = z.infer<typeof DatasetStageBody>;
export type PaymentEvent = z.infer<typeof PaymentEvent>;
export type PaymentReceived = z.infer<typeof PaymentReceived>;
export type NodeRegisterBody = z.infer<typeof NodeRegisterBody>;
export type QuoteBody = z.infer<typeof QuoteBody>;
export type JobCreateBody = z.infer<typeof JobCreateBody>;
export type JobManualCompleteBody = z.infer<typeof JobManualCompleteBody>;
export type WorkerRegisterBody = z.infer<typeof WorkerRegisterBody>;
export type ArtifactInput = z.infer<typeof ArtifactInput>;
export type WorkerAcceptBody = z.infer<typeof WorkerAcceptBody>;
export type WorkerStatusBody = z.infer<typeof WorkerStatusBody>;
export type WorkerLogsBody = z.infer<typeof WorkerLogsBody>;
export type WorkerArtifactsBody = z.infer<typeof WorkerArtifactsBody>;
export type WorkerCompleteBody = z.infer<typeof WorkerCompleteBody>;
export type WorkerFailBody = z.infer<typeof WorkerFailBody>;
