import { canonicalJson } from '../canonical/json.js';
import { sha256Hex } from '../hash/sha256.js';

/** parent_hash of the first receipt of every organization. */
export const GENESIS_PARENT = '0'.repeat(64);

/** `sha256(canonical(payload))`, lowercase hex. */
export function receiptHash(payload: unknown): string {
  return sha256Hex(canonicalJson(payload));
}

/** `{prefix}-{org_seq, 6 digits}-{first 8 hex of receipt_sha256}`. */
export function receiptId(prefix: string, orgSeq: number, receiptSha256: string): string {
  return `${prefix}-${String(orgSeq).padStart(6, '0')}-${receiptSha256.slice(0, 8)}`;
}
