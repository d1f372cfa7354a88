import type { ApprovalDecision, CheckStatus, EvidenceKind, RunState } from '../schemas/enums.js';
import type { Check } from '../schemas/check.js';
import type { FlightSheetInput } from '../schemas/flight-sheet.js';
import type { AgentProfile } from '../schemas/run.js';
import type { Verdict } from '../schemas/verdict.js';
import type { PageQuery } from './page-query.js';

/** The newest receipt of an org's chain: the next one links to it. */
export interface ChainHead {
  org_seq: number;
  receipt_sha256: string;
}

/**
 * Repositories of runs and their receipts. Every read and write is scoped by org_id, except the
 * two lookups whose key is itself the capability or global: a share token and a blob's sha256.
 * Times are ISO 8601 UTC strings with milliseconds.
 */

/** An owner-created flight sheet version; built-in sheets live in code, never in storage. */
export interface FlightSheetRecord {
  id: string;
  org_id: string;
  /** The validated content; its SHA-256 is `sha256`. */
  content: FlightSheetInput;
  sha256: string;
  created_at: string;
  created_by: string;
}

export interface FlightSheetsRepository {
  /** UNIQUE(org_id, slug, version): inserting an existing version throws. */
  insert(sheet: FlightSheetRecord): Promise<void>;
  get(orgId: string, id: string): Promise<FlightSheetRecord | null>;
  /** The highest version (numerically, MAJOR.MINOR.PATCH) of a slug in the org. */
  latestBySlug(orgId: string, slug: string): Promise<FlightSheetRecord | null>;
  /** Ordered by (created_at, id), optionally only one lane. */
  list(orgId: string, lane: string | null, page: PageQuery): Promise<FlightSheetRecord[]>;
}

export interface ApprovalRecord {
  decision: ApprovalDecision;
  note: string | null;
  decided_by: string;
  decided_at: string;
}

export interface RunRecord {
  id: string;
  org_id: string;
  project_id: string;
  flight_sheet_id: string;
  flight_sheet_slug: string;
  flight_sheet_version: string;
  flight_sheet_sha256: string;
  title: string;
  agent_profile: AgentProfile | null;
  state: RunState;
  /** Set when the findings are final (state finalized or later); cleared when inputs change. */
  verdict: Verdict | null;
  approval: ApprovalRecord | null;
  created_at: string;
  created_by: string;
  updated_at: string;
}

/** The fields a use case may change on a run. */
export type RunChanges = Partial<Pick<RunRecord, 'state' | 'verdict' | 'approval'>> & {
  updated_at: string;
};

export interface RunFilter {
  project_id: string | null;
  state: RunState | null;
  /** A flight sheet's slug: its runs on every version of the sheet. */
  flight_sheet_slug?: string | null;
}

export interface RunsRepository {
  insert(run: RunRecord): Promise<void>;
  get(orgId: string, id: string): Promise<RunRecord | null>;
  /**
   * `get`, with the run's row held until the write transaction ends: no other transaction changes
   * it meanwhile, so a guarded `update` of this transaction from the state read here matches
   * (PostgreSQL: `SELECT … FOR UPDATE`; SQLite: one writer at a time already). Write transactions only.
   */
  getForUpdate(orgId: string, id: string): Promise<RunRecord | null>;
  /** The org's runs among `ids`, in no particular order (an unknown id is left out). */
  getMany(orgId: string, ids: readonly string[]): Promise<RunRecord[]>;
  /** Ordered by (created_at, id). */
  list(orgId: string, filter: RunFilter, page: PageQuery): Promise<RunRecord[]>;
  /** Changes a run only if it is still in `expectedState` (a guarded UPDATE); false otherwise. */
  update(orgId: string, id: string, expectedState: RunState, changes: RunChanges): Promise<boolean>;
}

export interface SubmissionRecord {
  run_id: string;
  org_id: string;
  /** The canonical JSON (RFC 8785) text of the body; `sha256` is its hash. */
  body_text: string;
  sha256: string;
  submitted_at: string;
}

export interface SubmissionsRepository {
  /** Inserts or replaces the run's one submission. */
  put(submission: SubmissionRecord): Promise<void>;
  get(orgId: string, runId: string): Promise<SubmissionRecord | null>;
  /** The hashes of the submissions of the org's runs among `runIds`, in no particular order. */
  hashesOf(orgId: string, runIds: readonly string[]): Promise<SubmissionHash[]>;
}

/** What a receipt records of a run's submission: its hash (never its body). */
export type SubmissionHash = Pick<SubmissionRecord, 'run_id' | 'sha256'>;

export interface EvidenceRecord {
  id: string;
  org_id: string;
  run_id: string;
  kind: EvidenceKind;
  label: string;
  /** The text of the JSON kinds; null for files, whose bytes sit in the blob store under `sha256`. */
  content: string | null;
  sha256: string;
  size: number;
  filename: string | null;
  content_type: string | null;
  created_at: string;
  created_by: string;
}

export interface EvidenceRepository {
  insert(evidence: EvidenceRecord): Promise<void>;
  get(orgId: string, runId: string, id: string): Promise<EvidenceRecord | null>;
  /** Every evidence item of the run, ordered by (created_at, id). */
  listByRun(orgId: string, runId: string): Promise<EvidenceRecord[]>;
  /**
   * What receipts record of the evidence of the org's runs among `runIds` (never the content),
   * each run's ordered by (created_at, id).
   */
  listByRuns(orgId: string, runIds: readonly string[]): Promise<ReceiptEvidence[]>;
  /** How many file evidence rows, in any org, reference a blob (blobs are shared by content). */
  countFileRefs(sha256: string): Promise<number>;
}

/** What a receipt records of an evidence item, with its run. */
export type ReceiptEvidence = Pick<
  EvidenceRecord,
  'run_id' | 'id' | 'kind' | 'label' | 'sha256' | 'size'
>;

export interface CheckRecord extends Check {
  org_id: string;
  run_id: string;
  /** The rule's index in the flight sheet: checks are listed in rule order. */
  position: number;
}

/** What a receipt records of a check, with its run. */
export type ReceiptCheck = Pick<
  CheckRecord,
  'run_id' | 'key' | 'category' | 'kind' | 'severity' | 'tier' | 'status' | 'detail'
>;

export interface ChecksRepository {
  /** Replaces all checks of the run (an audit, or [] when inputs change). */
  replace(orgId: string, runId: string, checks: readonly CheckRecord[]): Promise<void>;
  listByRun(orgId: string, runId: string): Promise<CheckRecord[]>;
  /**
   * What receipts record of the checks of the org's runs among `runIds`, each run's ordered by
   * position.
   */
  listByRuns(orgId: string, runIds: readonly string[]): Promise<ReceiptCheck[]>;
  get(orgId: string, runId: string, id: string): Promise<CheckRecord | null>;
  /** Grades an open check (guarded: `status = 'open'`); false when it was not open. */
  grade(
    orgId: string,
    runId: string,
    id: string,
    status: Exclude<CheckStatus, 'open' | 'skip'>,
  ): Promise<boolean>;
}

export interface ReceiptRecord {
  receipt_id: string;
  org_id: string;
  org_seq: number;
  run_id: string;
  parent_hash: string;
  receipt_sha256: string;
  /** The canonical JSON text of the payload, exactly the bytes that were hashed. */
  payload_text: string;
  /** A public capability shown on every read of the receipt, so it is stored as is. */
  share_token: string;
  created_at: string;
}

/** A ledger row without its payload. */
export type ReceiptEntry = Omit<
  ReceiptRecord,
  'payload_text' | 'share_token' | 'run_id' | 'org_id'
>;

export interface ReceiptsRepository {
  /** UNIQUE(org_id, org_seq), UNIQUE(run_id), UNIQUE(share_token): a fork or a second receipt throws. */
  insert(receipt: ReceiptRecord): Promise<void>;
  /** The newest receipt of the org (one indexed row), or null for an empty ledger. */
  head(orgId: string): Promise<ChainHead | null>;
  byRun(orgId: string, runId: string): Promise<ReceiptRecord | null>;
  /** Not org-scoped: the token is the capability. */
  byShareToken(token: string): Promise<ReceiptRecord | null>;
  /** Ledger rows with org_seq > afterSeq, ascending, at most `limit`. */
  entries(orgId: string, afterSeq: number, limit: number): Promise<ReceiptEntry[]>;
  /** Full rows with afterSeq < org_seq <= uptoSeq, ascending, at most `limit`: a verification or export chunk. */
  chunk(orgId: string, afterSeq: number, uptoSeq: number, limit: number): Promise<ReceiptRecord[]>;
  /** Full rows with org_seq < beforeSeq (null: from the head), descending, at most `limit`. */
  recent(orgId: string, beforeSeq: number | null, limit: number): Promise<ReceiptRecord[]>;
  /** How many receipts the org has with org_seq <= uptoSeq. */
  count(orgId: string, uptoSeq: number): Promise<number>;
  /** One receipt of the org by its id, or null (another organization's receipt is null too). */
  byId(orgId: string, receiptId: string): Promise<ReceiptRecord | null>;
  /** Every organization with receipts and its receipt count (max org_seq + 1), for the tree backfill. */
  counts(): Promise<{ org_id: string; count: number }[]>;
}
