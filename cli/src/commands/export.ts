import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { contextOf, type Context, type GlobalArgs } from '../context.js';
import { CliError } from '../errors.js';
import { failure, mainApi } from '../http/client.js';
import { emit, note } from '../output.js';
import { progressBar, type Progress } from '../progress.js';
import { isTerminal } from '../terminal.js';

const HEADER_LIMIT = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * Passes the export through unchanged while counting its lines. The first line is the header, whose
 * `count` is the number of receipt lines that follow: the bar's total.
 */
export function countingLines(startBar: (total: number) => Progress): Transform {
  let header: Buffer[] | null = [];
  let headerBytes = 0;
  let lines = 0;
  let bar: Progress | null = null;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let from = 0;
      if (header !== null) {
        const end = chunk.indexOf(NEWLINE);
        const part = end === -1 ? chunk : chunk.subarray(0, end);
        header.push(part);
        headerBytes += part.length;
        if (end === -1 && headerBytes <= HEADER_LIMIT) return done(null, chunk);
        const total = Number(
          (() => {
            try {
              return (JSON.parse(Buffer.concat(header).toString('utf8')) as { count?: unknown })
                .count;
            } catch {
              return NaN;
            }
          })(),
        );
        header = null;
        // Without a readable count (an older server) there is no bar rather than a wrong one.
        if (Number.isSafeInteger(total) && total >= 0) bar = startBar(total);
        from = end + 1;
      }
      for (let at = chunk.indexOf(NEWLINE, from); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) {
        lines += 1;
      }
      bar?.update(lines);
      done(null, chunk);
    },
    flush(done) {
      bar?.finish();
      done();
    },
  });
}

/** The NDJSON exports of the main API: the run ledger and the audit receipts. */
export type ExportPath = '/ledger/export' | '/org/audit/export';

/** The export's body as a stream, or the server's refusal as a CliError. */
export async function downloadExport(context: Context, path: ExportPath): Promise<Readable> {
  const api = mainApi(context);
  const { response, error } =
    path === '/ledger/export'
      ? await api.GET('/ledger/export', { parseAs: 'stream' })
      : await api.GET('/org/audit/export', { parseAs: 'stream' });
  if (!response.ok || !response.body) throw failure(error, response);
  return Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
}

/**
 * Streams an export (GET /ledger/export by default) to `--out` through a temp file (so a broken
 * download never looks like an export), or to stdout without --out. A bar on stderr when it is a
 * terminal and the export is not being printed on that same terminal.
 */
export async function exportLedger(
  argv: GlobalArgs & { out?: string | undefined },
  path: ExportPath = '/ledger/export',
): Promise<void> {
  const context = await contextOf(argv);
  const body = await downloadExport(context, path);
  const showBar = argv.out !== undefined || !isTerminal(process.stdout);
  const counter = countingLines((total) =>
    progressBar({
      label: 'exporting',
      unit: { kind: 'items', name: 'receipts' },
      total,
      // A stream that is no terminal: progressBar draws nothing.
      stream: showBar ? process.stderr : { write: () => true },
    }),
  );
  if (argv.out === undefined) {
    await copy(body, counter, process.stdout, 'stdout');
    return;
  }
  const partial = `${argv.out}.partial`;
  try {
    await copy(body, counter, createWriteStream(partial, { flags: 'w' }), argv.out);
    await rename(partial, argv.out);
  } finally {
    await rm(partial, { force: true });
  }
  const bytes = (await stat(argv.out)).size;
  emit(context.json, { file: argv.out, bytes }, () => `wrote ${bytes} bytes to ${argv.out}`);
  if (context.json === false) note(`check it offline: npx runledger-verify ${argv.out}`);
}

async function copy(body: Readable, counter: Transform, to: Writable, name: string) {
  try {
    await pipeline(body, counter, to);
  } catch (cause) {
    const where = (cause as NodeJS.ErrnoException).code ? `cannot write ${name}` : 'export failed';
    throw new CliError('local_input', `${where}: ${(cause as Error).message}`);
  }
}
