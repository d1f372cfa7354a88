import { canonicalJson } from '../canonical/json.js';
import { sha256Hex } from '../hash/sha256.js';

/** SHA-256 of the canonical JSON of a router receipt line without its checksum_sha256 field. */
export function routerReceiptChecksum(receipt: Record<string, unknown>): string {
  const { checksum_sha256: _ignored, ...rest } = receipt;
  return sha256Hex(canonicalJson(rest));
}
