import type { DatasetStatus, PaymentOutcome } from '../schemas/router.js';
import type { JobStatus, JobType, NodeClass } from '../schemas/enums.js';
import type { RouterReceiptInput } from './receipt-sink.js';
import type { PageQuery } from './page-query.js';

/**
 * Router records and repositories (docs/design.md#router). Times are ISO 8601 UTC strings with
 * milliseconds, so they compare correctly as text. Secrets appear only as SHA-256 hex.
 */

/**
 * The guard of one event, shared by the pure machine and the storage layer's conditional UPDATE,
 * so both refuse exactly the same things:
 *
 *   UPDATE jobs SET … WHERE job_id = ? AND status IN (statuses)
 *     [token]     AND lease_token_hash = ? AND lease_epoch = ?
 *     [unexpired] AND lease_expires_at > now
 *     [expired]   AND lease_expires_at <= now
 *     [worker]    AND worker_id = ?
 *     [unleased]  AND lease_token_hash IS NULL
 */
export interface LeaseFence {
  statuses: readonly JobStatus[];
  /** The presented lease token's hash must equal the job's (and the epoch read with it). */
  token: boolean;
  unexpired: boolean;
  expired: boolean;
  worker: boolean;
  /** Only for jobs run without a worker (the manual path). */
  unleased: boolean;
}

export interface RouterMemberRecord {
  member_id: string;
  /** Normalized: trimmed, lower case. Not unique: one person may hold several member ids. */
  email: string;
  name: string;
  created_at: string;
  activated_at: string | null;
  expires_at: string | null;
}

export interface RouterMembersRepository {
  insert(member: RouterMemberRecord): Promise<void>;
  byId(memberId: string): Promise<RouterMemberRecord | null>;
  /** Sets the term; false when no such member exists. */
  activate(memberId: string, activatedAt: string, expiresAt: string): Promise<boolean>;
  /** Active means expires_at > now. */
  counts(now: string): Promise<{ active: number; inactive: number }>;
}

export interface DatasetRecord {
  dataset_id: string;
  name: string;
  description: string | null;
  status: DatasetStatus;
  /** Why staging failed; null otherwise. */
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface DatasetAccessRecord {
  dataset_id: string;
  member_id: string;
  receipt_id: string;
  granted_at: string;
}

export interface DatasetsRepository {
  insert(dataset: DatasetRecord): Promise<void>;
  byId(datasetId: string): Promise<DatasetRecord | null>;
  /** Ordered by (created_at, dataset_id); the cursor id is the dataset id. */
  list(page: PageQuery): Promise<DatasetRecord[]>;
  count(): Promise<number>;
  /** Inserts the grant unless (dataset_id, member_id) already has one; false when it had. */
  grantAccess(grant: DatasetAccessRecord): Promise<boolean>;
  accessOf(datasetId: string, memberId: string): Promise<DatasetAccessRecord | null>;
  /** Moves the dataset only if it is still `from` (a guarded UPDATE); false otherwise. */
  setStatus(
    datasetId: string,
    from: DatasetStatus,
    change: Pick<DatasetRecord, 'status' | 'error' | 'updated_at'>,
  ): Promise<boolean>;
}

export interface ComputeNodeRecord {
  node_id: string;
  name: string;
  node_class: NodeClass;
  status: 'available';
  created_at: string;
}

export interface ComputeNodesRepository {
  insert(node: ComputeNodeRecord): Promise<void>;
  /** Every registered node, ordered by (created_at, node_id). */
  list(): Promise<ComputeNodeRecord[]>;
  count(): Promise<number>;
}

export interface QuoteRecord {
  quote_id: string;
  member_id: string;
  node_class: NodeClass;
  hours: number;
  hourly_rate: string;
  amount: string;
  currency: string;
  receipt_id: string;
  created_at: string;
}

export interface QuotesRepository {
  insert(quote: QuoteRecord): Promise<void>;
  byId(quoteId: string): Promise<QuoteRecord | null>;
}

/** The lease columns of a job, the part the lease machine (core/src/leases) owns. */
export interface JobLeaseColumns {
  status: JobStatus;
  attempt: number;
  lease_epoch: number;
  lease_token_hash: string | null;
  lease_expires_at: string | null;
  worker_id: string | null;
}

export interface JobRecord extends JobLeaseColumns {
  job_id: string;
  member_id: string;
  type: JobType;
  node_class: NodeClass;
  hours: number;
  hourly_rate: string;
  estimated_amount: string;
  currency: string;
  /** JSON text of the caller's input object, or null. */
  input: string | null;
  progress: number | null;
  message: string | null;
  log_lines: number;
  /** JSON text of the worker's result object, or null. */
  result: string | null;
  error: string | null;
  cost: string | null;
  billed_seconds: number | null;
  created_at: string;
  accepted_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

/** What a fenced update sets: the new lease columns plus any of the job's other mutable fields. */
export type JobChange = JobLeaseColumns &
  Pick<JobRecord, 'updated_at'> &
  Partial<
    Pick<
      JobRecord,
      | 'progress'
      | 'message'
      | 'result'
      | 'error'
      | 'cost'
      | 'billed_seconds'
      | 'accepted_at'
      | 'finished_at'
    >
  > & {
    /** Lines to add to log_lines. */
    add_log_lines?: number;
  };

/**
 * The values a fenced update matches, per the event's LeaseFence:
 * always `lease_epoch` (as read with the row); `token_hash` when fence.token; `worker_id` when
 * fence.worker; `now` when fence.unexpired or fence.expired.
 */
export interface JobGuard {
  lease_epoch: number;
  token_hash?: string;
  worker_id?: string;
  now?: string;
}

export interface JobArtifactRecord {
  artifact_id: string;
  job_id: string;
  worker_id: string;
  name: string;
  uri: string;
  sha256: string | null;
  size: number | null;
  reported_at: string;
}

export interface JobsRepository {
  insert(job: JobRecord): Promise<void>;
  byId(jobId: string): Promise<JobRecord | null>;
  /**
   * Queued jobs of a class to lease, oldest first (created_at, job_id), at most `limit`. An engine
   * whose write transactions run concurrently (PostgreSQL) locks what it returns until the
   * transaction ends, skips jobs other transactions hold, and returns at most one.
   */
  oldestQueued(nodeClass: NodeClass, limit: number): Promise<JobRecord[]>;
  /** Jobs leased or running for this worker whose lease is live at `now`. */
  liveLeasesOf(workerId: string, now: string): Promise<JobRecord[]>;
  /** Jobs leased or running whose lease_expires_at ≤ now, oldest expiry first. */
  expiredLeases(now: string, limit: number): Promise<JobRecord[]>;
  /**
   * The one conditional UPDATE of every job change:
   * `UPDATE jobs SET … WHERE job_id = ? AND lease_epoch = ? AND status IN (fence.statuses) [AND …fence]`.
   * Returns true when exactly one row changed; false means the fence refused and nothing changed.
   */
  applyFenced(
    jobId: string,
    fence: LeaseFence,
    guard: JobGuard,
    change: JobChange,
  ): Promise<boolean>;
  /**
   * `applyFenced` as the write that ends its transaction (hand it to `WriteTransaction.endWith`):
   * resolves once the row matched and changed; where the fence refuses, it rejects with
   * `refusal()`, and the transaction it ends is refused with that error, together with every
   * other statement sent with it.
   */
  applyFencedEnding(
    jobId: string,
    fence: LeaseFence,
    guard: JobGuard,
    change: JobChange,
    refusal: () => Error,
  ): Promise<void>;
  appendLogs(jobId: string, lines: readonly string[], at: string): Promise<void>;
  insertArtifact(artifact: JobArtifactRecord): Promise<void>;
  artifactsOf(jobId: string): Promise<JobArtifactRecord[]>;
  countByStatus(): Promise<Record<JobStatus, number>>;
}

export interface WorkerRecord {
  worker_id: string;
  name: string;
  node_class: NodeClass;
  /** SHA-256 hex of the worker token; unique. */
  token_hash: string;
  created_at: string;
  last_seen_at: string | null;
}

export interface WorkersRepository {
  insert(worker: WorkerRecord): Promise<void>;
  byId(workerId: string): Promise<WorkerRecord | null>;
  byTokenHash(tokenHash: string): Promise<WorkerRecord | null>;
  touch(workerId: string, at: string): Promise<void>;
  /** Ordered by (created_at, worker_id). */
  list(page: PageQuery): Promise<WorkerRecord[]>;
  count(): Promise<number>;
  countByClass(): Promise<Partial<Record<NodeClass, number>>>;
}

/**
 * Receipts written in the same transaction as the state change they record, appended to the
 * ReceiptSink once the transaction is durable and deleted once the line is durable; rows left by a crash are flushed at start-up.
 */
export interface RouterOutboxRepository {
  insert(receipt: RouterReceiptInput): Promise<void>;
  /** The oldest rows first, in insertion order. */
  list(limit: number): Promise<RouterReceiptInput[]>;
  /** Deletes the rows of these receipt ids (ids without a row are skipped), in as few statements as it can. */
  delete(receiptIds: readonly string[]): Promise<void>;
}

/** A payment webhook event, kept once per event id: the idempotency record. */
export interface PaymentEventRecord {
  event_id: string;
  type: string;
  member_id: string | null;
  amount: string | null;
  currency: string | null;
  outcome: PaymentOutcome;
  /** The membership receipt the event wrote, when it activated a member. */
  receipt_id: string | null;
  received_at: string;
}

export interface PaymentEventsRepository {
  /** Inserts unless the event id is already stored; false when it was (a duplicate delivery). */
  insert(event: PaymentEventRecord): Promise<boolean>;
  byId(eventId: string): Promise<PaymentEventRecord | null>;
}

export interface RouterRepositories {
  routerMembers: RouterMembersRepository;
  datasets: DatasetsRepository;
  computeNodes: ComputeNodesRepository;
  quotes: QuotesRepository;
  jobs: JobsRepository;
  workers: WorkersRepository;
  routerOutbox: RouterOutboxRepository;
  paymentEvents: PaymentEventsRepository;
}
