import { RunReceiptPayload } from '@runledger/core';
import type { PublicReceipt } from '@runledger/core/schemas';

/**
 * The payload read as a run receipt. A tampered payload may no longer have that shape;
 * renderers then show the raw JSON instead of the structured sections (and `verified` is false).
 */
export function runPayloadOf(receipt: PublicReceipt): RunReceiptPayload | null {
  const parsed = RunReceiptPayload.safeParse(receipt.payload);
  return parsed.success ? parsed.data : null;
}

/** One sentence on the verification result, the same words on the page and in the PDF. */
export function verificationText(verified: boolean): string {
  return verified
    ? 'Verified: the stored payload hashes to receipt_sha256 and matches its place in the chain.'
    : 'NOT VERIFIED: the stored payload does not hash to receipt_sha256 or does not match its place in the chain.';
}
