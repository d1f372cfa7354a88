import type { Runledger } from '@runledger/core';
import {
  ConsistencyProof,
  InclusionProof,
  KeysDocument,
  SignedCheckpoint,
} from '@runledger/core/schemas';
import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';
import { SeqParam } from './params.js';

const InclusionQuery = z
  .object({ receipt_id: z.string().min(1).max(200), tree_size: SeqParam.optional() })
  .strict();
const ConsistencyQuery = z.object({ first: SeqParam, second: SeqParam }).strict();

/** The signed checkpoints, proofs and public keys of docs/checkpoints.md. */
export function checkpointRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/.well-known/runledger-keys.json',
      summary:
        'The deployment’s checkpoint keys: the key in use, then retired keys with their not_after',
      description:
        'Public: a third party fetches it once to check checkpoints, exports and shared receipts offline.',
      tag: 'checkpoints',
      auth: 'none',
      status: 200,
      response: KeysDocument,
      handler: async () => runledger.ledger.publishedKeys(),
    }),
    defineRoute({
      method: 'get',
      path: '/ledger/checkpoint',
      summary: 'The organization’s signed checkpoint: its Merkle tree’s size and root, signed',
      description:
        '`checkpoint` is a C2SP signed note over a tlog-checkpoint body (origin `<host>/orgs/<org_id>`, size, base64 root, `time` line).',
      tag: 'checkpoints',
      auth: 'any',
      status: 200,
      response: SignedCheckpoint,
      handler: async ({ actor }) => runledger.ledger.checkpoint(actor),
    }),
    defineRoute({
      method: 'get',
      path: '/ledger/proof/inclusion',
      summary: 'The RFC 9162 audit path of one receipt in the tree of `tree_size` receipts',
      description:
        '`tree_size` defaults to the current size; 400 unless the receipt’s org_seq < tree_size ≤ the current size; 404 for a receipt of another organization.',
      tag: 'checkpoints',
      auth: 'any',
      query: InclusionQuery,
      status: 200,
      response: InclusionProof,
      errors: [404],
      handler: async ({ actor, query }) =>
        runledger.ledger.inclusionProof(actor, {
          receipt_id: query.receipt_id,
          ...(query.tree_size === undefined ? {} : { tree_size: query.tree_size }),
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/ledger/proof/consistency',
      summary: 'The RFC 9162 proof that the tree of `second` receipts extends the tree of `first`',
      description: '400 unless 1 ≤ first ≤ second ≤ the current tree size.',
      tag: 'checkpoints',
      auth: 'any',
      query: ConsistencyQuery,
      status: 200,
      response: ConsistencyProof,
      handler: async ({ actor, query }) => runledger.ledger.consistencyProof(actor, query),
    }),
  ];
}
