import type { Role, ShareIdentity } from '../schemas/enums.js';
import type {
  ComputeNodesRepository,
  DatasetsRepository,
  JobsRepository,
  PaymentEventsRepository,
  QuotesRepository,
  RouterMembersRepository,
  RouterOutboxRepository,
  WorkersRepository,
} from './router-storage.js';
import type { IncidentsRepository } from './incident-storage.js';
import type { MerkleStorage } from './merkle-storage.js';
import type { AuditReceiptsRepository, SignInFailuresRepository } from './audit-storage.js';
import type {
  DeploymentStateRepository,
  OperationsRepository,
  RateLimitsRepository,
} from './operations-storage.js';
import type {
  ChecksRepository,
  EvidenceRepository,
  FlightSheetsRepository,
  ReceiptsRepository,
  RunsRepository,
  SubmissionsRepository,
} from './run-storage.js';
import type { TribunalTasksRepository, TribunalVerdictsRepository } from './tribunal-storage.js';
import type { PageQuery } from './page-query.js';
import type { WitnessedCheckpointsRepository } from './witness-storage.js';
import type { WebhookEndpointsRepository, WebhookOutboxRepository } from './webhook-storage.js';

export type { PageCursor, PageQuery } from './page-query.js';

export type {
  ApprovalRecord,
  ChainHead,
  CheckRecord,
  ChecksRepository,
  EvidenceRecord,
  EvidenceRepository,
  FlightSheetRecord,
  FlightSheetsRepository,
  ReceiptCheck,
  ReceiptEntry,
  ReceiptEvidence,
  ReceiptRecord,
  ReceiptsRepository,
  RunChanges,
  RunFilter,
  RunRecord,
  RunsRepository,
  SubmissionHash,
  SubmissionRecord,
  SubmissionsRepository,
} from './run-storage.js';
export type {
  ClaimFence,
  TribunalTaskChange,
  TribunalTaskClaimColumns,
  TribunalTaskGuard,
  TribunalTaskRecord,
  TribunalTasksRepository,
  TribunalVerdictChange,
  TribunalVerdictRecord,
  TribunalVerdictsRepository,
} from './tribunal-storage.js';
export type { FlaggedKey, IncidentRecord, IncidentsRepository } from './incident-storage.js';
export type { MerkleNode, MerkleNodeId, MerkleStorage, MerkleTail } from './merkle-storage.js';
export type {
  AuditReceiptRecord,
  AuditReceiptsRepository,
  SignInFailureWindow,
  SignInFailuresRepository,
} from './audit-storage.js';
export type {
  DeploymentStateRepository,
  LedgerSize,
  OperationsRepository,
  RateLimitsRepository,
} from './operations-storage.js';

export type {
  ClaimedDelivery,
  DeliverySettlement,
  WebhookDeliveryRecord,
  WebhookDeliveryState,
  WebhookEndpointRecord,
  WebhookEndpointsRepository,
  WebhookEventInput,
  WebhookOutboxRepository,
} from './webhook-storage.js';

export type {
  WitnessedCheckpointRecord,
  WitnessedCheckpointsRepository,
} from './witness-storage.js';

/**
 * Storage as repositories plus read and write transactions (the concurrency contract is explained
 * in docs/storage.md, "Concurrency contract"). Every use case runs inside one transaction; a throw
 * inside `fn` rolls everything back. Adding a concern later (runs, receipts, router) is adding a
 * field to `Repositories`. Times are ISO 8601 UTC strings with milliseconds, so they also compare
 * correctly as text. How an engine sends a transaction's statements is the adapter's business
 * (docs/storage.md, "How each engine runs a transaction").
 *
 * What both engines guarantee:
 * - `read`: a consistent, read-only view of durable data; it never sees another transaction's
 *   unfinished writes and is never queued behind writes. Writing inside it throws.
 * - `write`: all or nothing, durable before the promise settles. A throw undoes this transaction
 *   alone, even when the engine runs it together with others. Statements see what other
 *   transactions made durable before them, so a read that a later write of the same transaction
 *   depends on must be guarded by `lock`.
 * - `lock(key)`: see `WriteTransaction`. Keys are built by `lockKeys` (ports/lock-keys.ts) only.
 * - Inside `read` or `write`, independent statements may be sent together (`Promise.all`); they run
 *   in the order they were sent, so reads sent after a `lock` run under it. The transaction ends
 *   only once every statement it sent has settled, even when `fn` throws first.
 * - `writeBatches` and `readBatches`: work that may share one transaction with other asks of the
 *   same key arriving together; how many go together is the storage's own setting.
 */
export interface Storage {
  /** A read-only, consistent snapshot, never queued behind writes. Writing inside throws. */
  read<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** A write transaction: all or nothing, durable before the promise settles. */
  write<T>(fn: (tx: WriteTransaction) => Promise<T>): Promise<T>;
  /**
   * A batched writer: an ask starts a write transaction for its key at once, unless that key's
   * previous batch is still in one; then it waits and goes with every ask of the key that arrived
   * meanwhile into the next (batches of one key run one after another; different keys run
   * independently). `apply` settles each ask of its batch in order; if it throws, the batch's
   * transaction is undone and every ask fails with that error. An ask resolves once its batch is
   * durable.
   */
  writeBatches<A, R>(
    apply: BatchApply<WriteTransaction, A, R>,
  ): (key: string, ask: A) => Promise<R>;
  /**
   * A batched reader, as `writeBatches` with a read transaction, except that an idle key's first
   * ask starts its transaction once the current turn of the event loop has run (no timer), so the
   * asks of one turn share it. Each ask's snapshot is taken after it was asked.
   */
  readBatches<A, R>(apply: BatchApply<Repositories, A, R>): (key: string, ask: A) => Promise<R>;
  close(): Promise<void>;
}

/** One ask's outcome in a batch: its value, or the error that ask alone fails with. */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/** Settles a batch of one key's asks inside one transaction: one outcome per ask, in order. */
export type BatchApply<Tx, A, R> = (
  tx: Tx,
  key: string,
  asks: readonly A[],
) => Promise<readonly Settled<R>[]>;

export interface WriteTransaction extends Repositories {
  /** Holds the named lock until this transaction ends: any other write transaction taking the same key waits. Call it before reading what you will write on (chain head, owner count, log numbering, blob references, webhook event id, run mint). */
  lock(key: string): Promise<void>;
  /**
   * Ends the transaction with writes whose answers `fn` does not read: the transaction is kept
   * only if every one succeeds, and otherwise is refused, with the error of the earliest statement
   * that failed. Once it has called this, `fn` sends nothing more but other ending writes (it may
   * still await statements it sent before); once `fn` has returned, the transaction refuses new
   * statements. A write whose guard may miss ends the transaction only in its ending form (such as
   * `jobs.applyFencedEnding`), which refuses the whole transaction with the caller's error on a
   * miss; any other guarded write ends it only where its row was read for update, so that it cannot
   * miss. Only a repository call that sends its statements at once (an insert, a delete, a guarded
   * update) may end a transaction.
   */
  endWith(...writes: Promise<unknown>[]): void;
}

export interface Repositories {
  users: UsersRepository;
  orgs: OrgsRepository;
  memberships: MembershipsRepository;
  links: LinksRepository;
  apiKeys: ApiKeysRepository;
  projects: ProjectsRepository;
  routerMembers: RouterMembersRepository;
  datasets: DatasetsRepository;
  computeNodes: ComputeNodesRepository;
  quotes: QuotesRepository;
  jobs: JobsRepository;
  workers: WorkersRepository;
  routerOutbox: RouterOutboxRepository;
  paymentEvents: PaymentEventsRepository;
  flightSheets: FlightSheetsRepository;
  runs: RunsRepository;
  submissions: SubmissionsRepository;
  evidence: EvidenceRepository;
  checks: ChecksRepository;
  receipts: ReceiptsRepository;
  tribunalVerdicts: TribunalVerdictsRepository;
  tribunalTasks: TribunalTasksRepository;
  incidents: IncidentsRepository;
  /** The Merkle trees of every (organization, log): see merkle-storage.ts. */
  merkle: MerkleStorage;
  auditReceipts: AuditReceiptsRepository;
  signInFailures: SignInFailuresRepository;
  rateLimits: RateLimitsRepository;
  deploymentState: DeploymentStateRepository;
  operations: OperationsRepository;
  webhookEndpoints: WebhookEndpointsRepository;
  webhookOutbox: WebhookOutboxRepository;
  /** Checkpoints witnesses cosigned, and where each witness stands (docs/witnesses.md). */
  witnessedCheckpoints: WitnessedCheckpointsRepository;
}

export interface UserRecord {
  id: string;
  /** Normalized: trimmed and lower case; unique. */
  email: string;
  created_at: string;
}

export interface UsersRepository {
  insert(user: UserRecord): Promise<void>;
  byId(id: string): Promise<UserRecord | null>;
  byEmail(email: string): Promise<UserRecord | null>;
}

export interface OrgRecord {
  id: string;
  name: string;
  created_at: string;
  share_identity: ShareIdentity;
}

export interface OrgsRepository {
  /** A new organization shows people by e-mail on shared receipts unless it says otherwise. */
  insert(
    org: Omit<OrgRecord, 'share_identity'> & Partial<Pick<OrgRecord, 'share_identity'>>,
  ): Promise<void>;
  byId(id: string): Promise<OrgRecord | null>;
  setShareIdentity(id: string, value: ShareIdentity): Promise<void>;
  /** Every organization's id, in id order. */
  ids(): Promise<string[]>;
}

export interface MembershipRecord {
  org_id: string;
  user_id: string;
  role: Role;
  created_at: string;
}

/** A membership joined with the member's e-mail. */
export interface MemberRecord extends MembershipRecord {
  email: string;
}

export interface MembershipsRepository {
  /** A user has at most one membership (UNIQUE user_id): inserting a second one throws. */
  insert(membership: MembershipRecord): Promise<void>;
  byUser(userId: string): Promise<MemberRecord | null>;
  get(orgId: string, userId: string): Promise<MemberRecord | null>;
  /** Ordered by (created_at, user_id); the cursor id is the user id. */
  list(orgId: string, page: PageQuery): Promise<MemberRecord[]>;
  /** Returns false when no such membership exists in the org. */
  updateRole(orgId: string, userId: string, role: Role): Promise<boolean>;
  remove(orgId: string, userId: string): Promise<boolean>;
  countOwners(orgId: string): Promise<number>;
}

export type LinkPurpose = 'sign_in' | 'invite';

/**
 * A one-time link: a magic sign-in link or an invite. Only the SHA-256 of its token is kept.
 * Invites carry org_id, role and created_by; sign-in links leave them null.
 */
export interface LinkRecord {
  id: string;
  purpose: LinkPurpose;
  token_hash: string;
  email: string;
  org_id: string | null;
  role: Role | null;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

export interface LinksRepository {
  insert(link: LinkRecord): Promise<void>;
  /**
   * Consumes a link in one conditional UPDATE (unused, unrevoked, unexpired, of this purpose).
   * Returns the consumed link, or null when nothing matched; a second call with the same hash returns null.
   */
  consume(tokenHash: string, purpose: LinkPurpose, now: string): Promise<LinkRecord | null>;
  /** Marks one link used if it still is usable; false when it was used, revoked or expired meanwhile. */
  markUsed(id: string, now: string): Promise<boolean>;
  /** The newest usable invite for this e-mail, across orgs. */
  pendingInviteFor(email: string, now: string): Promise<LinkRecord | null>;
  getInvite(orgId: string, id: string): Promise<LinkRecord | null>;
  /** Invites of the org ordered by (created_at, id). */
  listInvites(orgId: string, page: PageQuery): Promise<LinkRecord[]>;
  /** Sets revoked_at unless already revoked or used; false when nothing changed. */
  revokeInvite(orgId: string, id: string, now: string): Promise<boolean>;
}

export interface ApiKeyRecord {
  key_id: string;
  org_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  created_at: string;
  created_by: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface ApiKeysRepository {
  insert(key: ApiKeyRecord): Promise<void>;
  /** Not org-scoped: the key id arrives with the credential, before any org is known. */
  byId(keyId: string): Promise<ApiKeyRecord | null>;
  get(orgId: string, keyId: string): Promise<ApiKeyRecord | null>;
  /** Ordered by (created_at, key_id). */
  list(orgId: string, page: PageQuery): Promise<ApiKeyRecord[]>;
  /** Sets revoked_at unless already revoked; false when nothing changed. */
  revoke(orgId: string, keyId: string, now: string): Promise<boolean>;
  touch(keyId: string, now: string): Promise<void>;
}

export interface ProjectRecord {
  id: string;
  org_id: string;
  name: string;
  created_at: string;
  created_by: string;
}

export interface ProjectsRepository {
  insert(project: ProjectRecord): Promise<void>;
  get(orgId: string, id: string): Promise<ProjectRecord | null>;
  /** Ordered by (created_at, id). */
  list(orgId: string, page: PageQuery): Promise<ProjectRecord[]>;
}
