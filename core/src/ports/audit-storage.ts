import type { ChainHead } from './run-storage.js';

/** One stored audit receipt (docs/audit.md). Times are ISO 8601 UTC strings with milliseconds. */
export interface AuditReceiptRecord {
  receipt_id: string;
  org_id: string;
  org_seq: number;
  /** The payload's event.type, kept as a column so `?type=` is an indexed filter. */
  event_type: string;
  parent_hash: string;
  receipt_sha256: string;
  /** The canonical JSON text of the payload, exactly the bytes that were hashed. */
  payload_text: string;
  created_at: string;
}

/** Every read and write is scoped by org_id; every query walks UNIQUE(org_id, org_seq). */
export interface AuditReceiptsRepository {
  /** UNIQUE(org_id, org_seq): a fork throws. */
  insert(receipt: AuditReceiptRecord): Promise<void>;
  /** The newest audit receipt of the org, or null for an empty chain. */
  head(orgId: string): Promise<ChainHead | null>;
  /** Rows with org_seq > afterSeq (of one event type when given), ascending, at most `limit`. */
  list(
    orgId: string,
    afterSeq: number,
    limit: number,
    eventType: string | null,
  ): Promise<AuditReceiptRecord[]>;
  /** Rows with afterSeq < org_seq <= uptoSeq, ascending, at most `limit`: an export chunk. */
  chunk(
    orgId: string,
    afterSeq: number,
    uptoSeq: number,
    limit: number,
  ): Promise<AuditReceiptRecord[]>;
  /** How many audit receipts the org has with org_seq <= uptoSeq. */
  count(orgId: string, uptoSeq: number): Promise<number>;
}

/** Failed sign-in attempts of an org counted over one window, not yet written as a receipt. */
export interface SignInFailureWindow {
  org_id: string;
  window_start: string;
  count: number;
  first_at: string;
  last_at: string;
}

export interface SignInFailuresRepository {
  /** Counts one attempt in (org, window): one upsert, so a flood is one row, not one per attempt. */
  add(orgId: string, windowStart: string, at: string): Promise<void>;
  /** The org's open counters, oldest window first. */
  pending(orgId: string): Promise<SignInFailureWindow[]>;
  remove(orgId: string, windowStart: string): Promise<void>;
}
