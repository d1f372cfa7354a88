import { authUseCases } from './identity/auth.js';
import { apiKeyUseCases } from './identity/api-keys.js';
import { orgUseCases } from './identity/orgs.js';
import { flightSheetUseCases } from './flight-sheets/use-cases.js';
import { incidentUseCases } from './incidents/use-cases.js';
import { ledgerUseCases } from './ledger/use-cases.js';
import { projectUseCases } from './projects/projects.js';
import { routerUseCases } from './router/use-cases.js';
import { runUseCases } from './runs/use-cases.js';
import { shareUseCases } from './share/use-cases.js';
import { tribunalUseCases, type TribunalUseCases } from './tribunal/use-cases.js';
import type { BlobStore, PreparedBlob } from './ports/blob-store.js';
import type { Clock } from './ports/clock.js';
import type { Mailer } from './ports/mailer.js';
import type { Random } from './ports/random.js';
import type { ReceiptSink } from './ports/receipt-sink.js';
import type { Storage } from './ports/storage.js';
import type { RunState } from './runs/lifecycle.js';
import type { Approval, ApprovalIn } from './schemas/approval.js';
import type { Check, CheckGradeIn, ChecksList, FlagsList } from './schemas/check.js';
import type { Role } from './schemas/enums.js';
import type { Evidence, EvidenceIn } from './schemas/evidence.js';
import type { FlightSheet } from './schemas/flight-sheet.js';
import type { Incident, IncidentIn } from './schemas/incident.js';
import type { LedgerList, LedgerVerifyResult } from './schemas/ledger.js';
import type { PublicReceipt, Receipt } from './schemas/receipt.js';
import type {
  AuditResponse,
  ReceiptsRecent,
  Run,
  RunComposite,
  RunCreateBody,
  Submission,
} from './schemas/run.js';
import type { Verdict } from './schemas/verdict.js';
import type {
  ApiKey,
  ApiKeyCreated,
  ApiKeyCreateBody,
  AuthRequestResult,
  Invite,
  InviteCreateBody,
  InviteCreated,
  Member,
  Org,
  Principal,
  Project,
  ProjectCreateBody,
} from './schemas/identity.js';
import type {
  ComputeInventory,
  ComputeNode,
  ComputeQuote,
  Dataset,
  DatasetAccess,
  DatasetAccessBody,
  DatasetCreateBody,
  DatasetStageBody,
  JobCreateBody,
  JobLease,
  JobManualCompleteBody,
  MemberActivated,
  MemberCreateBody,
  NodeRegisterBody,
  PaymentEvent,
  PaymentReceived,
  QuoteBody,
  RouterJob,
  RouterMember,
  RouterMemberStatus,
  RouterSummary,
  RouterWorker,
  WorkerAcceptBody,
  WorkerArtifactsBody,
  WorkerCompleteBody,
  WorkerFailBody,
  WorkerHeartbeat,
  WorkerLogsBody,
  WorkerRegisterBody,
  WorkerRegistered,
  WorkerStatusBody,
} from './schemas/router.js';

/** Who is calling. An API key acts in its org with the member role (DESIGN.md section 4). */
export type Actor =
  | { kind: 'user'; userId: string; orgId: string; role: Role; email: string }
  | { kind: 'api_key'; keyId: string; orgId: string; role: 'member' };

/** A page request: `limit` defaults to 50 (at most 200); `after` is the opaque cursor from a previous `next`. */
export interface Page {
  limit?: number;
  after?: string;
}

export interface Paged<T> {
  items: T[];
  next: string | null;
}

/** The result of a sign-in; the server signs its JWT from this. */
export interface SignIn {
  user: { id: string; email: string };
  org: { id: string; name: string };
  role: Role;
}

export interface RunledgerConfig {
  /** Base of the links put into e-mails and dev_link, e.g. http://localhost:8080. */
  publicBaseUrl: string;
  /** In production a dev_link is never returned. */
  production: boolean;
  magicLinkTtlMinutes: number;
  inviteTtlHours: number;
  receiptPrefix: string;
  /** Router lease time to live (LEASE_TTL_SECONDS). */
  leaseTtlSeconds: number;
  /** Attempts before an expired lease fails the job instead of requeueing it (JOB_MAX_ATTEMPTS). */
  jobMaxAttempts: number;
  /** How long a tribunal runner's claim lives without a status report (TRIBUNAL_CLAIM_TTL_SECONDS). */
  tribunalClaimTtlSeconds: number;
  /** Claims that may expire before a grading task fails instead of being requeued (TRIBUNAL_MAX_ATTEMPTS). */
  tribunalMaxAttempts: number;
}

export const defaultRunledgerConfig: RunledgerConfig = {
  publicBaseUrl: 'http://localhost:8080',
  production: false,
  magicLinkTtlMinutes: 10,
  inviteTtlHours: 168,
  receiptPrefix: 'rcpt',
  leaseTtlSeconds: 600,
  jobMaxAttempts: 3,
  tribunalClaimTtlSeconds: 300,
  tribunalMaxAttempts: 3,
};

export interface RunledgerPorts {
  storage: Storage;
  clock: Clock;
  random: Random;
  mailer: Mailer;
  /** Where router receipts go (the JSONL files under DATA_DIR/receipts). */
  receiptSink: ReceiptSink;
  /** Where uploaded evidence files go (content-addressed). */
  blobs: BlobStore;
}

export interface AuthUseCases {
  /** Same answer for every well-formed e-mail; dev_link only outside production without a configured mailer. */
  requestLink(email: string): Promise<AuthRequestResult>;
  /** Consumes a sign-in token once; bad, used or expired → unauthenticated. */
  verifyLink(token: string): Promise<SignIn>;
  /** Consumes an invite token; a user already in another org → conflict. */
  acceptInvite(token: string): Promise<SignIn>;
  /** Reads the membership on every call, so role changes and removals apply at once. */
  resolveUser(userId: string, orgId: string): Promise<Actor>;
  /** Parses `rlk_<key_id>_<secret>`; unknown, wrong or revoked → unauthenticated. */
  authenticateApiKey(plaintext: string): Promise<Actor>;
  /** For an API key: id is the key_id, email the creator's, role member, kind api_key. */
  me(actor: Actor): Promise<Principal>;
}

export interface OrgUseCases {
  get(actor: Actor): Promise<Org>;
  listMembers(actor: Actor, page: Page): Promise<Paged<Member>>;
  createInvite(actor: Actor, input: InviteCreateBody): Promise<InviteCreated>;
  listInvites(actor: Actor, page: Page): Promise<Paged<Invite>>;
  revokeInvite(actor: Actor, inviteId: string): Promise<void>;
  updateMemberRole(actor: Actor, userId: string, role: Role): Promise<Member>;
  removeMember(actor: Actor, userId: string): Promise<void>;
}

export interface ApiKeyUseCases {
  list(actor: Actor, page: Page): Promise<Paged<ApiKey>>;
  create(actor: Actor, input: ApiKeyCreateBody): Promise<ApiKeyCreated>;
  revoke(actor: Actor, keyId: string): Promise<void>;
}

export interface ProjectUseCases {
  create(actor: Actor, input: ProjectCreateBody): Promise<Project>;
  list(actor: Actor, page: Page): Promise<Paged<Project>>;
  get(actor: Actor, projectId: string): Promise<Project>;
}

/** A worker authenticated by its bearer worker_token. */
export interface WorkerActor {
  worker_id: string;
  name: string;
  node_class: ComputeNode['node_class'];
}

/**
 * The router API v0.1 (DESIGN.md section 8). Every state change is one storage transaction that also
 * writes its receipts to the outbox; each call resolves only after those receipt lines are durable.
 * Errors: invalid_input 400, unauthenticated 401, forbidden 403 (inactive member), not_found 404,
 * conflict 409 (wrong state; stale, expired, superseded or wrong lease token).
 */
export interface RouterUseCases {
  createMember(input: MemberCreateBody): Promise<RouterMember>;
  getMember(memberId: string): Promise<RouterMember>;
  /** Starts a one-year term (from the current expiry when still active); writes `membership` 100.00 USD. */
  activateMember(memberId: string): Promise<MemberActivated>;
  memberStatus(memberId: string): Promise<RouterMemberStatus>;
  /**
   * A payment event whose signature the caller (server) has verified. Idempotent per event id: a
   * repeat answers `duplicate: true` and changes nothing. `membership.paid` at 100.00 USD for a known
   * member activates it through the same path as activateMember; anything else is recorded only.
   */
  receivePaymentEvent(event: PaymentEvent): Promise<PaymentReceived>;

  createDataset(input: DatasetCreateBody): Promise<Dataset>;
  listDatasets(page: Page): Promise<Paged<Dataset>>;
  getDataset(datasetId: string): Promise<Dataset>;
  /** Active members only (403); a dataset not yet ready is 409; a repeated grant returns the first one. */
  grantDatasetAccess(datasetId: string, input: DatasetAccessBody): Promise<DatasetAccess>;
  /** The caller (server) checks X-Internal-Key first. pending → staging → ready | failed, pending → ready; else 409. */
  stageDataset(datasetId: string, input: DatasetStageBody): Promise<Dataset>;

  inventory(): Promise<ComputeInventory>;
  registerNode(input: NodeRegisterBody): Promise<ComputeNode>;
  /** Writes `compute_quote` with the amount; a caller-supplied rate is ignored. */
  quote(input: QuoteBody): Promise<ComputeQuote>;

  /** Writes `compute_job` (or `fine_tune_job`) with the estimated amount. */
  createJob(input: JobCreateBody): Promise<RouterJob>;
  getJob(jobId: string): Promise<RouterJob>;
  /** Manual path: queued → running without a worker. */
  startJob(jobId: string): Promise<RouterJob>;
  /** Manual path: running (never leased) → completed; writes `worker_job_completed` with worker_id null and the cost. */
  completeJob(jobId: string, input: JobManualCompleteBody): Promise<RouterJob>;
  /** queued, leased or running → canceled; ends any lease. */
  cancelJob(jobId: string): Promise<RouterJob>;

  /** The caller (server) checks X-Registration-Key first. Writes `worker_registered`. */
  registerWorker(input: WorkerRegisterBody): Promise<WorkerRegistered>;
  /** Bearer worker_token → the worker; unknown → unauthenticated. */
  authenticateWorker(workerToken: string): Promise<WorkerActor>;
  heartbeat(worker: WorkerActor): Promise<WorkerHeartbeat>;
  /** The oldest queued job of the worker's class, or null (204). Writes `job_leased`. */
  leaseJob(worker: WorkerActor): Promise<JobLease | null>;
  acceptJob(worker: WorkerActor, jobId: string, input: WorkerAcceptBody): Promise<RouterJob>;
  reportStatus(worker: WorkerActor, jobId: string, input: WorkerStatusBody): Promise<RouterJob>;
  appendLogs(worker: WorkerActor, jobId: string, input: WorkerLogsBody): Promise<RouterJob>;
  /** Writes one `artifact_reported` per artifact. */
  reportArtifacts(
    worker: WorkerActor,
    jobId: string,
    input: WorkerArtifactsBody,
  ): Promise<RouterJob>;
  /** Writes `worker_job_completed` with the server-computed cost (accepted-to-now seconds × rate). */
  completeWorkerJob(
    worker: WorkerActor,
    jobId: string,
    input: WorkerCompleteBody,
  ): Promise<RouterJob>;
  failWorkerJob(worker: WorkerActor, jobId: string, input: WorkerFailBody): Promise<RouterJob>;

  /** Expires every lease whose lease_expires_at ≤ now; returns how many. One `lease_expired` each. */
  sweepExpiredLeases(): Promise<number>;
  /** Start-up recovery: appends outbox rows a crash left behind, skipping lines already written. */
  flushOutbox(): Promise<number>;

  summary(): Promise<RouterSummary>;
  listWorkers(page: Page): Promise<Paged<RouterWorker>>;
  getWorker(workerId: string): Promise<RouterWorker>;
}

export interface FlightSheetUseCases {
  /** Built-in sheets first, then the org's own in creation order; `lane` filters both. */
  list(actor: Actor, query: { lane?: string } & Page): Promise<Paged<FlightSheet>>;
  /** By id, or by slug (the newest version). */
  get(actor: Actor, idOrSlug: string): Promise<FlightSheet>;
  /** Owner only. Validates the input; a slug's new version must be higher than its newest (409). */
  create(actor: Actor, input: unknown): Promise<FlightSheet>;
}

/**
 * An uploaded file the blob store has already received (`BlobStore.prepare`: hashed and synced);
 * `addFileEvidence` commits it into the store, or discards it when the evidence is refused.
 */
export interface FileEvidenceInput {
  label: string;
  filename: string;
  content_type: string;
  blob: PreparedBlob;
}

/** What the download route needs to stream a file evidence item from the blob store. */
export interface EvidenceFile {
  sha256: string;
  size: number;
  filename: string;
  content_type: string;
}

export interface RunUseCases {
  create(actor: Actor, input: RunCreateBody): Promise<Run>;
  list(actor: Actor, query: { project_id?: string; state?: RunState } & Page): Promise<Paged<Run>>;
  get(actor: Actor, runId: string): Promise<RunComposite>;
  /** Throws not_found or conflict when the run cannot take evidence now (checked before an upload is stored). */
  assertCanAddEvidence(actor: Actor, runId: string): Promise<void>;
  addEvidence(actor: Actor, runId: string, input: EvidenceIn): Promise<Evidence>;
  /** Stores the spooled file in the blob store, then records it; on failure the blob is deleted unless referenced. */
  addFileEvidence(actor: Actor, runId: string, input: FileEvidenceInput): Promise<Evidence>;
  listEvidence(actor: Actor, runId: string): Promise<Evidence[]>;
  /** not_found for an unknown id or an evidence item that is not a file. */
  evidenceFile(actor: Actor, runId: string, evidenceId: string): Promise<EvidenceFile>;
  /** Any JSON object or array; stored as canonical JSON with its sha256. */
  submit(actor: Actor, runId: string, body: unknown): Promise<Submission>;
  /** not_found when the run has no submission. */
  getSubmission(actor: Actor, runId: string): Promise<Submission>;
  audit(actor: Actor, runId: string): Promise<AuditResponse>;
  gradeCheck(actor: Actor, runId: string, checkId: string, input: CheckGradeIn): Promise<Check>;
  checks(actor: Actor, runId: string): Promise<ChecksList>;
  flags(actor: Actor, runId: string): Promise<FlagsList>;
  /** not_found before the findings are final. */
  verdict(actor: Actor, runId: string): Promise<Verdict>;
  findings(actor: Actor, runId: string): Promise<Verdict>;
  /** A person decides: an API key gets forbidden. */
  approve(actor: Actor, runId: string, input: ApprovalIn): Promise<Approval>;
  /** `created` is false when the run already had its receipt (the same one is returned). */
  mintReceipt(actor: Actor, runId: string): Promise<{ receipt: Receipt; created: boolean }>;
}

/** Incidents filed against runs (DESIGN.md section 9); members and API keys may file them. */
export interface IncidentUseCases {
  /**
   * Any kind on a run of the actor's org (404 otherwise). recurring_flag needs a rule key flagged in
   * at least two runs of the same project created before this one (409 otherwise); the key is stored.
   */
  file(actor: Actor, runId: string, input: IncidentIn): Promise<Incident>;
  list(actor: Actor, runId: string): Promise<Incident[]>;
}

export interface LedgerUseCases {
  /** In org_seq order; `next` is the last org_seq as a string, to pass back as `after_seq`. */
  list(actor: Actor, query: { after_seq?: number; limit?: number }): Promise<LedgerList>;
  /** Streams the chain in short read transactions, up to the head read at the start. */
  verify(actor: Actor): Promise<LedgerVerifyResult>;
  /** NDJSON lines without their newline: the header, then one line per receipt up to the head read at the start. */
  export(actor: Actor): AsyncIterable<string>;
  /** Newest first; `next` is the last org_seq as a string, to pass back as `before_seq`. */
  recent(actor: Actor, query: { before_seq?: number; limit?: number }): Promise<ReceiptsRecent>;
}

/** A shared receipt with what a page or PDF shows beside it. */
export interface ShareView {
  receipt: PublicReceipt;
  org_name: string;
  created_at: string;
  share_url: string;
  pdf_url: string;
}

export interface ShareUseCases {
  /** No credential: the token is the capability. `verified` is recomputed on every read. */
  get(token: string): Promise<PublicReceipt>;
  view(token: string): Promise<ShareView>;
}

export interface Runledger {
  auth: AuthUseCases;
  orgs: OrgUseCases;
  apiKeys: ApiKeyUseCases;
  projects: ProjectUseCases;
  router: RouterUseCases;
  flightSheets: FlightSheetUseCases;
  runs: RunUseCases;
  incidents: IncidentUseCases;
  ledger: LedgerUseCases;
  share: ShareUseCases;
  tribunal: TribunalUseCases;
}

/** The SDK: every use case, each in one storage transaction, over the ports given. */
export function createRunledger(ports: RunledgerPorts, config: RunledgerConfig): Runledger {
  const deps = { ...ports, config };
  return {
    auth: authUseCases(deps),
    orgs: orgUseCases(deps),
    apiKeys: apiKeyUseCases(deps),
    projects: projectUseCases(deps),
    router: routerUseCases(deps),
    flightSheets: flightSheetUseCases(deps),
    runs: runUseCases(deps),
    incidents: incidentUseCases(deps),
    ledger: ledgerUseCases(deps),
    share: shareUseCases(deps),
    tribunal: tribunalUseCases(deps),
  };
}

export type Deps = RunledgerPorts & { config: RunledgerConfig };
