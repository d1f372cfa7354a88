import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import { mainApi, ok } from '../http/client.js';
import { emit, fields } from '../output.js';

/**
 * `runledger ledger checkpoint` and `ledger proof inclusion|consistency` (docs/checkpoints.md):
 * the signed note is printed as is, so `> checkpoint.txt` gives a file runledger-verify reads.
 */
export const checkpointCommand = [
  'checkpoint',
  'the organization’s signed checkpoint (tree size, root, signed note)',
  (y: Argv<GlobalArgs>) =>
    y.example('$0 ledger checkpoint > checkpoint.txt', 'the signed note, for runledger-verify'),
  async (argv: GlobalArgs) => {
    const context = await contextOf(argv);
    const checkpoint = await ok(mainApi(context).GET('/ledger/checkpoint'));
    emit(context.json, checkpoint, () => checkpoint.checkpoint.trimEnd());
  },
] as const;

export const inclusionCommand = [
  'inclusion RECEIPT',
  'the audit path of one receipt (at --tree-size, default the current size)',
  (y: Argv<GlobalArgs>) =>
    y
      .positional('RECEIPT', { type: 'string', demandOption: true, describe: 'a receipt id' })
      .option('tree-size', { type: 'number', describe: 'the size of the tree to prove it in' }),
  async (argv: GlobalArgs & { RECEIPT?: string; 'tree-size'?: number }) => {
    const context = await contextOf(argv);
    const query = {
      receipt_id: String(argv.RECEIPT),
      ...(argv['tree-size'] === undefined ? {} : { tree_size: String(argv['tree-size']) }),
    };
    const proof = await ok(mainApi(context).GET('/ledger/proof/inclusion', { params: { query } }));
    emit(context.json, proof, () =>
      [
        fields([
          ['receipt', proof.receipt_id],
          ['leaf index', proof.leaf_index],
          ['tree size', proof.tree_size],
        ]),
        ...proof.hashes,
      ].join('\n'),
    );
  },
] as const;

export const consistencyCommand = [
  'consistency FIRST SECOND',
  'the proof that the tree of SECOND receipts extends the tree of FIRST',
  (y: Argv<GlobalArgs>) =>
    y
      .positional('FIRST', { type: 'number', demandOption: true })
      .positional('SECOND', { type: 'number', demandOption: true })
      .example(
        '$0 ledger proof consistency 10 20 --json > proof.json',
        'for runledger-verify --proof',
      ),
  async (argv: GlobalArgs & { FIRST?: number; SECOND?: number }) => {
    const context = await contextOf(argv);
    const query = { first: String(argv.FIRST), second: String(argv.SECOND) };
    const proof = await ok(
      mainApi(context).GET('/ledger/proof/consistency', { params: { query } }),
    );
    emit(context.json, proof, () =>
      [
        fields([
          ['first', proof.first],
          ['second', proof.second],
        ]),
        ...proof.hashes,
      ].join('\n'),
    );
  },
] as const;
