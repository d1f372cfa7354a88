import { attestReceipt, sigstoreBundle, type EnvelopeSigner } from '@runledger/verify/attestation';
import { keyIdHex } from '@runledger/verify/note';
import { verifyReceipt } from '@runledger/verify';
import { receiptInclusionProof, signedCheckpoint } from '../checkpoints/checkpoint.js';
import { LEDGER_LOG } from '../checkpoints/tree.js';
import { conflict, notFound } from '../errors.js';
import type { CheckpointSigner } from '../ports/checkpoint-signer.js';
import type { ReceiptRecord, Repositories } from '../ports/storage.js';
import { RunReceiptPayload } from '../receipts/payload.js';
import { shareUrl } from '../receipts/share.js';
import { loadRun } from '../runs/views.js';
import { DsseEnvelope, SigstoreBundle } from '../schemas/attestation.js';
import { SHARE_TOKEN } from '../share/use-cases.js';
import type { Deps } from '../deps.js';
import type { AttestationUseCases } from './api.js';

/** The deployment's checkpoint key signs envelopes too; keyid is its published key id. */
export function envelopeSigner(signer: CheckpointSigner): EnvelopeSigner {
  return { keyid: keyIdHex(signer.keyId), sign: (message) => signer.sign(message) };
}

/**
 * The stored payload, only when the stored bytes still verify: the server signs a statement of a
 * receipt it can vouch for, never of altered content (409 otherwise).
 */
function intactPayload(row: ReceiptRecord, receiptPrefix: string): RunReceiptPayload {
  const checked = verifyReceipt(row, { receiptPrefix, expectedOrgId: row.org_id });
  const parsed = checked.ok ? RunReceiptPayload.safeParse(JSON.parse(row.payload_text)) : null;
  if (parsed === null || !parsed.success) {
    throw conflict(`receipt ${row.receipt_id} does not verify; no attestation is signed for it`);
  }
  return parsed.data;
}

export function attestationUseCases(deps: Deps): AttestationUseCases {
  const { storage, config, clock, checkpointSigner } = deps;

  /** The envelope of one receipt, its checkpoint and audit path read in the same snapshot. */
  async function attest(tx: Repositories, row: ReceiptRecord): Promise<DsseEnvelope> {
    const payload = intactPayload(row, config.receiptPrefix);
    const context = {
      signer: checkpointSigner,
      publicBaseUrl: config.publicBaseUrl,
      now: clock.now(),
    };
    const checkpoint = await signedCheckpoint(tx, context, row.org_id, LEDGER_LOG);
    const proof = await receiptInclusionProof(tx, row.org_id, row, checkpoint.tree_size);
    return DsseEnvelope.parse(
      attestReceipt(
        {
          receipt: { receipt_id: row.receipt_id, receipt_sha256: row.receipt_sha256, payload },
          baseUrl: config.publicBaseUrl,
          shareUrl: shareUrl(config.publicBaseUrl, row.share_token),
          checkpoint,
          inclusionProof: proof,
        },
        envelopeSigner(checkpointSigner),
      ),
    );
  }

  return {
    asSigstoreBundle: (envelope) => SigstoreBundle.parse(sigstoreBundle(envelope)),
    async forShare(token) {
      if (!SHARE_TOKEN.test(token)) throw notFound('receipt');
      return storage.read(async (tx) => {
        const row = await tx.receipts.byShareToken(token);
        if (!row) throw notFound('receipt');
        return attest(tx, row);
      });
    },
    async forRun(actor, runId) {
      return storage.read(async (tx) => {
        const run = await loadRun(tx, actor.orgId, runId);
        const row = await tx.receipts.byRun(actor.orgId, run.id);
        if (!row) throw notFound('receipt');
        return attest(tx, row);
      });
    },
  };
}
