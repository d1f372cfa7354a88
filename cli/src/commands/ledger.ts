import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import { CliError } from '../errors.js';
import { failure, mainApi, ok } from '../http/client.js';
import { emit, morePages, note, table } from '../output.js';

/** Streams GET /ledger/export to `out` through a temp file, so a broken download never looks like an export. */
async function exportTo(argv: GlobalArgs & { out: string }): Promise<void> {
  const context = await contextOf(argv);
  const { response, error } = await mainApi(context).GET('/ledger/export', { parseAs: 'stream' });
  if (!response.ok || !response.body) throw failure(error, response);
  const partial = `${argv.out}.partial`;
  try {
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      createWriteStream(partial, { flags: 'w' }),
    );
    await rename(partial, argv.out);
  } catch (cause) {
    await rm(partial, { force: true });
    const where = (cause as NodeJS.ErrnoException).code
      ? `cannot write ${argv.out}`
      : 'export failed';
    throw new CliError('local_input', `${where}: ${(cause as Error).message}`);
  }
  const bytes = (await stat(argv.out)).size;
  emit(context.json, { file: argv.out, bytes }, () => `wrote ${bytes} bytes to ${argv.out}`);
  if (!context.json) note(`check it offline: npx runledger-verify ${argv.out}`);
}

export function ledgerCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli
    .command('ledger', 'your organization’s receipt chain', (ledger) =>
      ledger
        .command(
          'list',
          'list receipts in chain order',
          (y) =>
            y
              .option('after-seq', { type: 'string', describe: 'start after this org_seq' })
              .option('limit', { type: 'number' }),
          async (argv) => {
            const context = await contextOf(argv);
            const page = await ok(
              mainApi(context).GET('/ledger', {
                params: { query: { after_seq: argv['after-seq'], limit: argv.limit } },
              }),
            );
            emit(
              context.json,
              page,
              () =>
                table(page.entries, [
                  ['SEQ', (e) => e.org_seq],
                  ['RECEIPT', (e) => e.receipt_id],
                  ['SHA256', (e) => e.receipt_sha256],
                  ['CREATED', (e) => e.created_at],
                ]) + morePages(page.next, '--after-seq'),
            );
          },
        )
        .command(
          'verify',
          'have the server re-check the whole chain (exit 1 when it does not verify)',
          (y) => y,
          async (argv) => {
            const context = await contextOf(argv);
            const result = await ok(mainApi(context).GET('/ledger/verify'));
            emit(context.json, result, () =>
              result.ok
                ? `OK: ${result.receipts_checked} receipts verified`
                : [
                    `NOT VERIFIED: ${result.errors.length} problems in ${result.receipts_checked} receipts`,
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
          },
        )
        .command(
          'export',
          'download the ledger as NDJSON for offline verification',
          (y) => y.option('out', { type: 'string', demandOption: true, describe: 'file to write' }),
          (argv) => exportTo(argv),
        )
        .demandCommand(1, 'ledger needs a subcommand: list, verify or export'),
    )
    .command('receipts', 'minted receipts', (receipts) =>
      receipts
        .command(
          'recent',
          'the newest receipts first, with their share links',
          (y) =>
            y
              .option('before-seq', { type: 'string', describe: 'older than this org_seq' })
              .option('limit', { type: 'number' }),
          async (argv) => {
            const context = await contextOf(argv);
            const page = await ok(
              mainApi(context).GET('/receipts/recent', {
                params: { query: { before_seq: argv['before-seq'], limit: argv.limit } },
              }),
            );
            emit(
              context.json,
              page,
              () =>
                table(page.receipts, [
                  ['SEQ', (r) => r?.org_seq],
                  ['RECEIPT', (r) => r?.receipt_id],
                  ['CREATED', (r) => r?.created_at],
                  ['SHARE', (r) => r?.share_url],
                ]) + morePages(page.next, '--before-seq'),
            );
          },
        )
        .demandCommand(1, 'receipts needs a subcommand: recent'),
    );
}
