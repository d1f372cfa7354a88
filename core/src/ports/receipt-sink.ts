import type { RouterReceiptType } from '../schemas/enums.js';

/** What the router hands the sink: the receipt before the sink numbers, chains and checksums it. */
export interface RouterReceiptInput {
  receipt_id: string;
  type: RouterReceiptType;
  /** ISO 8601 UTC with milliseconds; its date names the file the line goes to. */
  created_at: string;
  /** The ids the receipt is about, e.g. {member_id, dataset_id}. */
  subject: Record<string, string | number | null>;
  /** Decimal string with 2 places. */
  amount?: string;
  currency?: string;
}

/** One line of `YYYY-MM-DD.receipts.jsonl` (docs/design.md#router). */
export interface RouterReceiptLine extends RouterReceiptInput {
  /** 1-based line number within its day file. */
  seq: number;
  prev_checksum_sha256: string;
  checksum_sha256: string;
}

/** Appends router receipts as checksummed JSON lines; resolves once the line is synced to disk. */
export interface ReceiptSink {
  append(receipt: RouterReceiptInput): Promise<RouterReceiptLine>;
  /**
   * The receipt ids among the last `lines` complete lines of the day file `date` (YYYY-MM-DD);
   * empty when that file does not exist. Outbox recovery uses it so a line is never written twice.
   */
  recentReceiptIds(date: string, lines: number): Promise<Set<string>>;
}
