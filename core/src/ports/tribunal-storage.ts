import type { CheckDraft } from '../schemas/check.js';
import type {
  TribunalHistoryEntry,
  TribunalStatus,
  TribunalTaskStatus,
} from '../schemas/tribunal.js';
import type { Verdict } from '../schemas/verdict.js';

/**
 * The guard of one event, shared by this machine and the storage's conditional UPDATE:
 *
 *   UPDATE tribunal_tasks SET … WHERE task_id = ? AND claim_epoch = ? AND status IN (statuses)
 *     [token]     AND claim_token_hash = ?
 *     [unexpired] AND claim_expires_at > now
 *     [expired]   AND claim_expires_at <= now
 */
export interface ClaimFence {
  statuses: readonly TribunalTaskStatus[];
  token: boolean;
  unexpired: boolean;
  expired: boolean;
}

/**
 * Tribunal records (docs/design.md#tribunal). A verdict is what an org polls; a task is one pass of
 * grading it through the queue. Times are ISO 8601 UTC strings with milliseconds.
 */
export interface TribunalVerdictRecord {
  verdict_id: string;
  org_id: string;
  status: TribunalStatus;
  /** null for an inline sheet. */
  flight_sheet_id: string | null;
  flight_sheet_slug: string;
  flight_sheet_version: string;
  flight_sheet_sha256: string;
  /** Canonical JSON of the sheet's content (FlightSheetInput), pinned at grade time. */
  flight_sheet_text: string;
  /** Canonical JSON of the submission; `submission_sha256` is its hash. */
  submission_text: string;
  submission_sha256: string;
  /** JSON array of the evidence items ({kind, label, content}). */
  evidence_text: string;
  checks: CheckDraft[] | null;
  verdict: Verdict | null;
  error: string | null;
  graded_at: string | null;
  history: TribunalHistoryEntry[];
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** The fields grading and regrading change. */
export type TribunalVerdictChange = Pick<
  TribunalVerdictRecord,
  'status' | 'checks' | 'verdict' | 'error' | 'graded_at' | 'history' | 'updated_at'
>;

export interface TribunalVerdictsRepository {
  insert(verdict: TribunalVerdictRecord): Promise<void>;
  get(orgId: string, verdictId: string): Promise<TribunalVerdictRecord | null>;
  /** Not org-scoped: a runner reaches a verdict through its task. */
  byId(verdictId: string): Promise<TribunalVerdictRecord | null>;
  /** Changes the verdict only while its status is still `expected` (a guarded UPDATE); false otherwise. */
  update(
    verdictId: string,
    expected: TribunalStatus,
    change: TribunalVerdictChange,
  ): Promise<boolean>;
}

/** The claim columns of a task, the part the claim machine (core/src/tribunal/claims.ts) owns. */
export interface TribunalTaskClaimColumns {
  status: TribunalTaskRecord['status'];
  attempt: number;
  claim_epoch: number;
  claim_token_hash: string | null;
  claim_expires_at: string | null;
  runner_id: string | null;
}

export interface TribunalTaskRecord {
  task_id: string;
  verdict_id: string;
  status: 'queued' | 'claimed' | 'completed' | 'failed';
  attempt: number;
  claim_epoch: number;
  claim_token_hash: string | null;
  claim_expires_at: string | null;
  runner_id: string | null;
  /** The runner's last status message. */
  message: string | null;
  created_at: string;
  updated_at: string;
}

export type TribunalTaskChange = TribunalTaskClaimColumns &
  Pick<TribunalTaskRecord, 'message' | 'updated_at'>;

/** What a fenced update matches: always the epoch read with the row; the token hash and now per the fence. */
export interface TribunalTaskGuard {
  claim_epoch: number;
  token_hash?: string;
  now?: string;
}

export interface TribunalTasksRepository {
  /** At most one queued or claimed task per verdict (a partial UNIQUE index): a second one throws. */
  insert(task: TribunalTaskRecord): Promise<void>;
  byId(taskId: string): Promise<TribunalTaskRecord | null>;
  /** Queued tasks, oldest first (created_at, task_id). */
  oldestQueued(limit: number): Promise<TribunalTaskRecord[]>;
  /** Claimed tasks whose claim_expires_at ≤ now, oldest expiry first. */
  expiredClaims(now: string, limit: number): Promise<TribunalTaskRecord[]>;
  /**
   * The one conditional UPDATE of every task change:
   * `UPDATE tribunal_tasks SET … WHERE task_id = ? AND claim_epoch = ? AND status IN (fence.statuses) [AND …fence]`.
   * True when exactly one row changed; false means the fence refused and nothing changed.
   */
  applyFenced(
    taskId: string,
    fence: ClaimFence,
    guard: TribunalTaskGuard,
    change: TribunalTaskChange,
  ): Promise<boolean>;
}
