import { formatTlogProof } from '@runledger/verify/tlog-proof';
import { fromHex } from '@runledger/verify/hash';
import type { SharedReceipt } from '../schemas/receipt.js';

/** The name under which a receipt PDF attaches the receipt's tlog-proof (beside share.json). */
export const TLOG_PROOF_ATTACHMENT = 'receipt.tlog-proof';

/**
 * A shared receipt's C2SP tlog-proof (docs/witnesses.md): `extra` = the receipt's SHA-256 (the
 * leaf's data), `index` = its org_seq, its inclusion hashes, and the checkpoint they lead to (the
 * latest cosigned one holding the receipt, when witnesses are configured), so the file alone is
 * checkable with `runledger-verify tlog-proof`.
 */
export function tlogProofOf(shared: SharedReceipt): string {
  return formatTlogProof({
    extra: fromHex(shared.receipt_sha256) as Uint8Array,
    index: shared.org_seq,
    hashes: shared.inclusion_proof.hashes.map((h) => fromHex(h) as Uint8Array),
    checkpoint: shared.checkpoint.checkpoint,
  });
}
