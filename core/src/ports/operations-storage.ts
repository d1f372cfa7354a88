/**
 * Storage for operations: shared rate-limit windows (so every instance on one database counts
 * against the same limit), the deployment's own state, and the figures /metrics reads at scrape time.
 */

/** Named facts about the whole deployment (table `deployment_state`), shared by every instance. */
export interface DeploymentStateRepository {
  get(name: string): Promise<string | null>;
  /** Inserts or replaces the value of `name`. */
  put(name: string, value: string): Promise<void>;
}

export interface RateLimitsRepository {
  /**
   * Counts one hit in the window `(key, window_start)` and returns the window's count including it,
   * in one atomic statement (INSERT … ON CONFLICT DO UPDATE … RETURNING): two instances hitting the
   * same window at once get two different counts.
   */
  hit(key: string, windowStart: string, expiresAt: string): Promise<number>;
  /** Deletes the windows that ended at or before `now`; returns how many. */
  deleteExpired(now: string): Promise<number>;
}

/** One organization's ledger length: its head's org_seq + 1 (org_seq counts from 0). */
export interface LedgerSize {
  org_id: string;
  receipts: number;
}

export interface OperationsRepository {
  /** Every non-empty ledger's length: one indexed look-up per organization, never a scan of receipts. */
  ledgerSizes(): Promise<LedgerSize[]>;
  /** Grading tasks waiting for a runner (queued) and being graded (claimed). */
  tribunalQueue(): Promise<{ queued: number; claimed: number }>;
}
