import { canonicalJson, type JsonValue } from '../canonical/json.js';
import { sha256Hex } from '../hash/sha256.js';
import { GENESIS_PARENT } from '../receipts/id.js';

/** A router receipt before sealing: what the router decides to record. */
export interface RouterReceiptFields {
  receipt_id: string;
  type: string;
  created_at: string;
  /** The 1-based line number of this receipt within its day file. */
  seq: number;
  subject: JsonValue;
  /** Money as a string with 2 decimals, e.g. "12.50". */
  amount?: string;
  currency?: string;
}

/** One line of a `YYYY-MM-DD.receipts.jsonl` file. */
export interface RouterReceipt extends RouterReceiptFields {
  prev_checksum_sha256: string;
  checksum_sha256: string;
}

/** prev_checksum_sha256 of the first line of every file. */
export const FIRST_PREV_CHECKSUM = GENESIS_PARENT;

/** SHA-256 of the canonical JSON of the receipt without its checksum_sha256 field. */
export function routerReceiptChecksum(receipt: Record<string, unknown>): string {
  const { checksum_sha256: _ignored, ...rest } = receipt;
  return sha256Hex(canonicalJson(rest));
}

/** The full line object for `fields`, chained to the previous line's checksum (or FIRST_PREV_CHECKSUM). */
export function sealRouterReceipt(
  fields: RouterReceiptFields,
  prevChecksum: string,
): RouterReceipt {
  const unsealed = { ...fields, prev_checksum_sha256: prevChecksum };
  return { ...unsealed, checksum_sha256: routerReceiptChecksum(unsealed) };
}

/** The line to append to a day file (canonical JSON, without the newline). */
export function formatRouterReceiptLine(receipt: RouterReceipt): string {
  return canonicalJson(receipt);
}
