import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import { CliError } from '../errors.js';
import { mainApi, ok } from '../http/client.js';
import { emit, table } from '../output.js';
import { exportLedger } from './export.js';
import { checkpointCommand, consistencyCommand, inclusionCommand } from './checkpoints.js';
import { listCommand } from './list.js';
import { paint } from '../terminal.js';

export function ledgerCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli
    .command('ledger', 'your organization’s receipt chain', (ledger) =>
      listCommand(ledger, {
        command: 'list',
        describe: 'list receipts in chain order',
        cursorFlag: '--after-seq',
        key: 'entries',
        fetch: async (context, _argv, after, limit) => {
          const page = await ok(
            mainApi(context).GET('/ledger', { params: { query: { after_seq: after, limit } } }),
          );
          return { rows: page.entries, next: page.next, page };
        },
        columns: [
          ['SEQ', (e) => e.org_seq],
          ['RECEIPT', (e) => e.receipt_id],
          ['SHA256', (e) => e.receipt_sha256],
          ['CREATED', (e) => e.created_at],
        ],
        examples: [['$0 ledger list --all --json receipt_id', 'every receipt id, in chain order']],
      })
        .command(
          'verify',
          'have the server re-check the whole chain (exit 1 when it does not verify)',
          (y) => y,
          (argv) => verifyLedger(argv),
        )
        .command(
          'export',
          'download the ledger as NDJSON for offline verification (to stdout without --out)',
          (y) =>
            y
              .option('out', {
                type: 'string',
                describe: 'file to write (via FILE.partial); without it, NDJSON on stdout',
              })
              .example('$0 ledger export --out ledger.ndjson', 'to a file, with a progress bar')
              .example('$0 ledger export > ledger.ndjson', 'the same bytes on stdout, for a pipe'),
          (argv) => exportLedger(argv),
        )
        .command(...checkpointCommand)
        .command('proof', 'RFC 9162 proofs from the organization’s Merkle tree', (proof) =>
          proof
            .command(...inclusionCommand)
            .command(...consistencyCommand)
            .demandCommand(1, 'proof needs a subcommand: inclusion or consistency'),
        )
        .demandCommand(1, 'ledger needs a subcommand: list, verify, export, checkpoint or proof'),
    )
    .command('receipts', 'minted receipts', (receipts) =>
      listCommand(receipts, {
        command: 'recent',
        describe: 'the newest receipts first, with their share links',
        cursorFlag: '--before-seq',
        key: 'receipts',
        fetch: async (context, _argv, before, limit) => {
          const page = await ok(
            mainApi(context).GET('/receipts/recent', {
              params: { query: { before_seq: before, limit } },
            }),
          );
          return { rows: page.receipts, next: page.next, page };
        },
        columns: [
          ['SEQ', (r) => r?.org_seq],
          ['RECEIPT', (r) => r?.receipt_id],
          ['CREATED', (r) => r?.created_at],
          ['SHARE', (r) => r?.share_url],
        ],
      }).demandCommand(1, 'receipts needs a subcommand: recent'),
    );
}

/** `runledger ledger verify`: the server re-checks the whole chain; exit 1 when it does not verify. */
async function verifyLedger(argv: Parameters<typeof contextOf>[0]): Promise<void> {
  const context = await contextOf(argv);
  const result = await ok(mainApi(context).GET('/ledger/verify'));
  emit(context.json, result, () =>
    result.ok
      ? `${paint(process.stdout, 'green', 'OK')}: ${result.receipts_checked} receipts verified`
      : [
          `${paint(process.stdout, 'red', 'NOT VERIFIED')}: ${result.errors.length} problems in ${result.receipts_checked} receipts`,
          table(result.errors, [
            ['SEQ', (e) => e.org_seq],
            ['RECEIPT', (e) => e.receipt_id],
            ['CODE', (e) => e.code],
            ['MESSAGE', (e) => e.message],
          ]),
        ].join('\n'),
  );
  if (!result.ok) {
    throw new CliError('not_verified', 'the ledger does not verify');
  }
}
