import type { Page, Paged } from '../paging.js';
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
} from '../schemas/router.js';

/** A worker authenticated by its bearer worker_token. */
export interface WorkerActor {
  worker_id: string;
  name: string;
  node_class: ComputeNode['node_class'];
}

/**
 * The router API v0.1 (docs/design.md#router). Every state change is one storage transaction that also
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
