import { toHex } from '@runledger/verify/hash';
import { LEDGER_LOG, consistencyProofAt, treeSize } from '../checkpoints/tree.js';
import { receiptInclusionProof } from '../checkpoints/checkpoint.js';
import { latestCheckpoint } from '../witnessing/served.js';
import { invalidInput, notFound } from '../errors.js';
import type { Deps } from '../deps.js';
import type { LedgerUseCases } from './api.js';

type ProofUseCases = Pick<
  LedgerUseCases,
  'checkpoint' | 'inclusionProof' | 'consistencyProof' | 'publishedKeys'
>;

/** `value` within [min, max]; the detail names what bounds it from above (`upTo`), with its value. */
function sizeOf(name: string, value: number, min: number, max: number, upTo: string): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw invalidInput(`${name} must be an integer from ${min} to ${upTo} (${max})`);
  }
  return value;
}

/**
 * The organization's signed checkpoint and its RFC 9162 proofs (docs/checkpoints.md), each read in
 * one snapshot: the size a request names is checked against the tree in that same snapshot.
 */
export function ledgerProofUseCases(deps: Deps): ProofUseCases {
  const { storage, clock, config, checkpointSigner } = deps;
  const context = () => ({
    signer: checkpointSigner,
    publicBaseUrl: config.publicBaseUrl,
    now: clock.now(),
  });
  return {
    checkpoint: (actor) =>
      storage.read((tx) => latestCheckpoint(tx, context(), actor.orgId, LEDGER_LOG)),

    inclusionProof: (actor, query) =>
      storage.read(async (tx) => {
        const receipt = await tx.receipts.byId(actor.orgId, query.receipt_id);
        if (receipt === null) throw notFound('receipt');
        const size = await treeSize(tx, actor.orgId, LEDGER_LOG);
        const at =
          query.tree_size === undefined
            ? size
            : sizeOf('tree_size', query.tree_size, receipt.org_seq + 1, size, 'the tree size');
        return receiptInclusionProof(tx, actor.orgId, receipt, at);
      }),

    consistencyProof: (actor, query) =>
      storage.read(async (tx) => {
        const size = await treeSize(tx, actor.orgId, LEDGER_LOG);
        const second = sizeOf('second', query.second, 1, size, 'the tree size');
        const first = sizeOf('first', query.first, 1, second, 'second');
        const hashes = await consistencyProofAt(tx, actor.orgId, LEDGER_LOG, first, second);
        return { first, second, hashes: hashes.map(toHex) };
      }),

    publishedKeys: () => ({ keys: [...checkpointSigner.published] }),
  };
}
