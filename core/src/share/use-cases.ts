import { verifyReceipt } from '@runledger/verify';
import { receiptInclusionProof } from '../checkpoints/checkpoint.js';
import { latestCheckpoint } from '../witnessing/served.js';
import { LEDGER_LOG } from '../checkpoints/tree.js';
import { notFound } from '../errors.js';
import type { ReceiptRecord } from '../ports/storage.js';
import { pdfUrl, shareUrl } from '../receipts/share.js';
import type { PublicReceipt } from '../schemas/receipt.js';
import type { Deps } from '../deps.js';
import { nowIso } from '../time.js';
import type { ShareFailure, SharePerson, ShareUseCases, ShareView } from './api.js';

/** A share token is 32 bytes in base64url (43 characters); anything else cannot exist. */
export const SHARE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The public view of a stored receipt. `verified` is recomputed from the stored bytes on every
 * read with the same checks `/ledger/verify` applies to one receipt (verify's verifyReceipt): the
 * payload hashes to receipt_sha256, the receipt id, org_seq, parent_hash and time match the payload,
 * and the payload belongs to the receipt's organization.
 */
export function toPublicReceipt(row: ReceiptRecord, receiptPrefix: string): PublicReceipt {
  return checkReceipt(row, receiptPrefix).receipt;
}

function checkReceipt(
  row: ReceiptRecord,
  receiptPrefix: string,
): { receipt: PublicReceipt; failures: ShareFailure[] } {
  let payload: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.payload_text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      payload = parsed as Record<string, unknown>;
    }
  } catch {
    // An unreadable payload is shown empty and unverified.
  }
  const result = verifyReceipt(row, { receiptPrefix, expectedOrgId: row.org_id });
  return {
    receipt: {
      receipt_id: row.receipt_id,
      org_seq: row.org_seq,
      receipt_sha256: row.receipt_sha256,
      payload,
      verified: result.ok,
    },
    failures: result.errors.map(({ code, message }) => ({ code, message })),
  };
}

/** A string field of a nested payload object, read without trusting the payload's shape. */
function stringAt(payload: Record<string, unknown>, parent: string, key: string): string | null {
  const inner = payload[parent];
  if (inner === null || typeof inner !== 'object') return null;
  const value = (inner as Record<string, unknown>)[key];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export function shareUseCases(deps: Deps): ShareUseCases {
  const { storage, config, clock, checkpointSigner } = deps;

  /**
   * The row, its org, the org's checkpoint with the receipt's path and, for the page, the names it
   * shows: all in one snapshot.
   */
  async function read(token: string, withNames: boolean) {
    if (!SHARE_TOKEN.test(token)) throw notFound('receipt');
    const now = clock.now();
    const found = await storage.read(async (tx) => {
      const row = await tx.receipts.byShareToken(token);
      if (!row) return null;
      const context = { signer: checkpointSigner, publicBaseUrl: config.publicBaseUrl, now };
      // The latest cosigned checkpoint holding this receipt, else one signed now.
      const checkpoint = await latestCheckpoint(
        tx,
        context,
        row.org_id,
        LEDGER_LOG,
        row.org_seq + 1,
      );
      const inclusion_proof = await receiptInclusionProof(
        tx,
        row.org_id,
        row,
        checkpoint.tree_size,
      );
      const checked = checkReceipt(row, config.receiptPrefix);
      const org = await tx.orgs.byId(row.org_id);
      if (!withNames) return { row, checked, checkpoint, inclusion_proof, org, names: null };
      const payload = checked.receipt.payload;
      // Names come from this organization's own records only (members, projects), whatever ids a
      // payload holds: a tampered payload cannot reveal another organization's people. An
      // organization that publishes ids only (share_identity "id") has no e-mail read at all.
      const byEmail = (org?.share_identity ?? 'email') === 'email';
      const person = async (id: string | null): Promise<SharePerson | null> => {
        if (id === null) return null;
        if (!byEmail) return { id, email: null };
        return { id, email: (await tx.memberships.get(row.org_id, id))?.email ?? null };
      };
      const projectId = stringAt(payload, 'run', 'project_id');
      const project = projectId === null ? null : await tx.projects.get(row.org_id, projectId);
      const names = {
        project_name: project?.name ?? null,
        created_by: await person(stringAt(payload, 'run', 'created_by')),
        approved_by: await person(stringAt(payload, 'approval', 'decided_by')),
      };
      return { row, checked, checkpoint, inclusion_proof, org, names };
    });
    if (!found) throw notFound('receipt');
    return found;
  }

  return {
    async get(token) {
      const { checked, checkpoint, inclusion_proof } = await read(token, false);
      return { ...checked.receipt, checkpoint, inclusion_proof };
    },
    async view(token): Promise<ShareView> {
      const { row, checked, checkpoint, inclusion_proof, org, names } = await read(token, true);
      return {
        receipt: checked.receipt,
        checkpoint,
        inclusion_proof,
        org_name: org?.name ?? row.org_id,
        project_name: names?.project_name ?? null,
        created_by: names?.created_by ?? null,
        approved_by: names?.approved_by ?? null,
        created_at: row.created_at,
        share_url: shareUrl(config.publicBaseUrl, row.share_token),
        pdf_url: pdfUrl(config.publicBaseUrl, row.share_token),
        base_url: config.publicBaseUrl.replace(/\/+$/, ''),
        verification: { checked_at: nowIso(clock), failures: checked.failures },
      };
    },
  };
}
