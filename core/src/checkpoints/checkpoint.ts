import { keyIdHex, ledgerOrigin } from '@runledger/verify/note';
import { signCheckpoint } from '@runledger/verify/ledger';
import { toHex } from '@runledger/verify/hash';
import type { CheckpointSigner } from '../ports/checkpoint-signer.js';
import type { InclusionProof, SignedCheckpoint } from '../schemas/checkpoint.js';
import { LEDGER_LOG, inclusionProofAt, treeRootAt, treeSize } from './tree.js';
import type { Repositories } from '../ports/storage.js';

/**
 * The origin line of a log's checkpoints: `<host of PUBLIC_BASE_URL>/orgs/<org_id>` for the ledger,
 * with `/<log>` after it for any other log (e.g. `/orgs/<org_id>/audit`).
 */
export function logOrigin(publicBaseUrl: string, orgId: string, log: string): string {
  const origin = ledgerOrigin(publicBaseUrl, orgId);
  return log === LEDGER_LOG ? origin : `${origin}/${log}`;
}

export interface CheckpointContext {
  signer: CheckpointSigner;
  publicBaseUrl: string;
  /** The signing time written into the checkpoint's `time` line. */
  now: Date;
}

/**
 * The signed checkpoint of the log's tree at `size` leaves (default: its current size), read in
 * the caller's transaction so it agrees with whatever else that transaction read.
 */
export async function signedCheckpoint(
  tx: Pick<Repositories, 'merkle'>,
  context: CheckpointContext,
  orgId: string,
  log: string,
  size?: number,
): Promise<SignedCheckpoint> {
  const treeSizeNow = size ?? (await treeSize(tx, orgId, log));
  const root = await treeRootAt(tx, orgId, log, treeSizeNow);
  const checkpoint = signCheckpoint(
    {
      origin: logOrigin(context.publicBaseUrl, orgId, log),
      size: treeSizeNow,
      rootHash: root,
      time: context.now,
    },
    context.signer,
  );
  return {
    checkpoint,
    tree_size: treeSizeNow,
    root_hash: toHex(root),
    key_id: keyIdHex(context.signer.keyId),
  };
}

/** A receipt's audit path in its organization's ledger tree of `size` leaves, in the wire shape. */
export async function receiptInclusionProof(
  tx: Pick<Repositories, 'merkle'>,
  orgId: string,
  receipt: { receipt_id: string; org_seq: number },
  size: number,
): Promise<InclusionProof> {
  const hashes = await inclusionProofAt(tx, orgId, LEDGER_LOG, receipt.org_seq, size);
  return {
    receipt_id: receipt.receipt_id,
    leaf_index: receipt.org_seq,
    tree_size: size,
    hashes: hashes.map(toHex),
  };
}
