import { verifyReceipt } from '@runledger/verify';
import { receiptInclusionProof, signedCheckpoint } from '../checkpoints/checkpoint.js';
import { LEDGER_LOG } from '../checkpoints/tree.js';
import { notFound } from '../errors.js';
import type { ReceiptRecord } from '../ports/storage.js';
import { pdfUrl, shareUrl } from '../receipts/share.js';
import type { PublicReceipt } from '../schemas/receipt.js';
import type { Deps } from '../deps.js';
import type { ShareUseCases, ShareView } from './api.js';

/** A share token is 32 bytes in base64url (43 characters); anything else cannot exist. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The public view of a stored receipt. `verified` is recomputed from the stored bytes on every
 * read with the same checks `/ledger/verify` applies to one receipt (verify's verifyReceipt): the
 * payload hashes to receipt_sha256, the receipt id, org_seq, parent_hash and time match the payload,
 * and the payload belongs to the receipt's organization.
 */
export function toPublicReceipt(row: ReceiptRecord, receiptPrefix: string): PublicReceipt {
  let payload: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.payload_text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      payload = parsed as Record<string, unknown>;
    }
  } catch {
    // An unreadable payload is shown empty and unverified.
  }
  const { ok: verified } = verifyReceipt(row, { receiptPrefix, expectedOrgId: row.org_id });
  return {
    receipt_id: row.receipt_id,
    org_seq: row.org_seq,
    receipt_sha256: row.receipt_sha256,
    payload,
    verified,
  };
}

export function shareUseCases(deps: Deps): ShareUseCases {
  const { storage, config, clock, checkpointSigner } = deps;

  /** The row, its org, and the org's checkpoint with the receipt's path, all in one snapshot. */
  async function read(token: string) {
    if (!TOKEN.test(token)) throw notFound('receipt');
    const now = clock.now();
    const found = await storage.read(async (tx) => {
      const row = await tx.receipts.byShareToken(token);
      if (!row) return null;
      const context = { signer: checkpointSigner, publicBaseUrl: config.publicBaseUrl, now };
      const checkpoint = await signedCheckpoint(tx, context, row.org_id, LEDGER_LOG);
      const inclusion_proof = await receiptInclusionProof(
        tx,
        row.org_id,
        row,
        checkpoint.tree_size,
      );
      const receipt = toPublicReceipt(row, config.receiptPrefix);
      return { row, receipt, checkpoint, inclusion_proof, org: await tx.orgs.byId(row.org_id) };
    });
    if (!found) throw notFound('receipt');
    return found;
  }

  return {
    async get(token) {
      const { receipt, checkpoint, inclusion_proof } = await read(token);
      return { ...receipt, checkpoint, inclusion_proof };
    },
    async view(token): Promise<ShareView> {
      const { row, receipt, checkpoint, inclusion_proof, org } = await read(token);
      return {
        receipt,
        checkpoint,
        inclusion_proof,
        org_name: org?.name ?? row.org_id,
        created_at: row.created_at,
        share_url: shareUrl(config.publicBaseUrl, row.share_token),
        pdf_url: pdfUrl(config.publicBaseUrl, row.share_token),
      };
    },
  };
}
