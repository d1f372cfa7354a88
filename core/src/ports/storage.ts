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

export type { PageCursor, PageQuery } from './page-query.js';

export type * from './run-storage.js';
export type * from './tribunal-storage.js';
export type * from './incident-storage.js';
export type * from './merkle-storage.js';
export type * from './audit-storage.js';
export type * from './operations-storage.js';
export type * from './witness-storage.js';

/**
 * Storage as repositories plus read and write transactions (the concurrency contract is explained
 * in docs/storage.md, "Concurrency contract"). Every use case runs inside one transaction; a throw
 * inside `fn` rolls everything back. Adding a concern later (runs, receipts, router) is adding a
 * field to `Repositories`. Times are ISO 8601 UTC strings with milliseconds, so they also compare
 * correctly as text.
 *
 * What both engines guarantee:
 * - `read`: a consistent, read-only view of committed data; it never sees another transaction's
 *   uncommitted writes and is never queued behind writes (SQLite: a small pool of WAL read
 *   connections opened read-only; PostgreSQL: a READ ONLY transaction). Writing inside it throws.
 * - `write`: all or nothing. Writes may be group-committed with others that arrive together: each
 *   runs in its own SAVEPOINT, a throw rolls back this one alone, and the promise settles only
 *   after its batch is durable. Statements see what other transactions committed before them
 *   (SQLite: one writer at a time; PostgreSQL: READ COMMITTED), so a read that a later write of the
 *   same transaction depends on must be guarded by `lock`.
 * - `lock(key)`: see `WriteTransaction`. Keys are built by `lockKeys` (ports/lock-keys.ts) only.
 * - Inside `read` or `write`, independent statements may be sent together (`Promise.all`): the
 *   transaction ends only once every statement it sent has settled, even when `fn` throws first.
 */
export interface Storage {
  /** A read-only, consistent snapshot. Never queued behind writes (SQLite: a small pool of WAL read connections, opened read-only; it never sees uncommitted data). Writing inside throws. */
  read<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** A write transaction. May be group-committed with others that arrive together: each runs in its own SAVEPOINT, a throw rolls back this one alone, and the promise settles only after its batch is durable. */
  write<T>(fn: (tx: WriteTransaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface WriteTransaction extends Repositories {
  /** Holds the named lock until this transaction ends: any other write transaction taking the same key waits. Call it before reading what you will write on (chain head, owner count, log numbering, blob references, webhook event id, run mint). SQLite: free (one writer at a time, savepoints in a batch run one after another). PostgreSQL: pg_advisory_xact_lock on a 64-bit hash of the key. */
  lock(key: string): Promise<void>;
  /**
   * Hands over a statement that `fn` has sent and does not await, to be the transaction's last: its
   * COMMIT follows without waiting for the statement's answer (PostgreSQL: one round trip for both),
   * and if the statement fails the transaction rolls back and `write` rejects with its error. A
   * guarded update is handed over as `jobs.applyFencedLast` (its miss fails the statement where
   * COMMIT has left before the answer), through a promise that rejects with the caller's own error
   * on a miss: `write` then rejects with that, unless an earlier statement failed first. Or it is
   * handed over after its row was read for update, so that it cannot miss. Only a repository call
   * that sends its statements at once (an insert, a delete, a guarded update) may be handed over,
   * and only once `fn` will send nothing more but other handed-over statements (it may still await
   * statements it has sent): once `fn` has returned, the transaction refuses new statements.
   */
  closeWith(statement: Promise<unknown>): void;
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
