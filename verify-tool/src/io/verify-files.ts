import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { CheckedBlock } from '../export/block.js';
import {
  ExportVerifier,
  type ExportVerifyOptions,
  type ExportVerifyResult,
} from '../export/verify.js';
import type { Authorship } from '../ledger/signed-checkpoint.js';
import type { TrustedKey } from '../note/keyring.js';
import { ROUTER_DAY_FILE, checkRouterAnchor, routerAnchorFileName } from '../router/anchor.js';
import {
  mergeRouterResults,
  verifyRouterReceiptLines,
  type RouterVerifyResult,
} from '../router/verify.js';
import { defaultThreadCount, startBlockThreads } from '../platform/block-threads.js';
import { exportLineAt, forEachLineIn } from '../platform/export-lines.js';
import { expandReceiptPaths, forEachLineBlock, readLines } from './lines.js';

/** Options of verifyExportFile: the verifier's, and how many threads check lines. */
export interface ExportFileOptions extends ExportVerifyOptions {
  /**
   * Worker threads that check receipt lines while this thread reads the file and links their
   * blocks; 0 checks every line in this thread. Default: one per core (at most 4) for files of
   * 16 MiB or more, none below. Results are the same either way.
   */
  threads?: number;
  /** Bytes read at a time (default 256 KiB); a block of whole lines goes to one thread. */
  blockSize?: number;
}

const BLOCK_SIZE = 256 << 10;
const THREADS_FROM_BYTES = 16 << 20;
/** Blocks larger than this (lines of megabytes) are checked in the reading thread. */
const THREAD_BLOCK_LIMIT = 2 << 20;

async function threadsFor(path: string, options: ExportFileOptions): Promise<number> {
  if (options.threads !== undefined) return options.threads;
  try {
    return (await stat(path)).size >= THREADS_FROM_BYTES ? defaultThreadCount() : 0;
  } catch {
    return 0; // reading reports it
  }
}

/**
 * Verifies an NDJSON export file, streaming, in constant memory. With worker threads, this thread
 * reads blocks of whole lines and workers check them (BlockChecker); a clean block joins the
 * chain here in one step, anything else is checked again here line by line, so findings and
 * errors are exactly those of the single-threaded path. Throws VerifyError for unreadable or
 * truncated input.
 */
export async function verifyExportFile(
  path: string,
  options: ExportFileOptions = {},
): Promise<ExportVerifyResult> {
  const verifier = new ExportVerifier(options);
  const blockSize = options.blockSize ?? BLOCK_SIZE;
  const threadBlockLimit = Math.max(4 * blockSize, THREAD_BLOCK_LIMIT);
  const threads = startBlockThreads(await threadsFor(path, options));
  const spare: Buffer[] = [];
  const take = (minSize: number) => {
    const reused = spare.pop();
    return reused !== undefined && reused.length >= minSize
      ? reused
      : Buffer.allocUnsafeSlow(minSize);
  };
  const checkHere = (buffer: Buffer, length: number, final: boolean) => {
    forEachLineIn(buffer, 0, length, final, (start, end) =>
      verifier.push(exportLineAt(buffer, start, end)),
    );
    spare.push(buffer);
  };
  const inFlight: Promise<{
    buffer: Buffer;
    length: number;
    final: boolean;
    block: CheckedBlock;
  }>[] = [];
  const joinNext = async () => {
    const done = await (inFlight.shift() as (typeof inFlight)[number]);
    if (verifier.pushCheckedBlock(done.block)) spare.push(done.buffer);
    else checkHere(done.buffer, done.length, done.final);
  };
  try {
    await forEachLineBlock(path, blockSize, take, async (buffer, length, final) => {
      const blockOptions = verifier.blockOptions();
      // The block with the header is checked here: the header says how to check the rest. So is a
      // block grown around a very long line: workers run with little memory (see block-threads.ts).
      if (threads === undefined || blockOptions === undefined || length > threadBlockLimit) {
        while (inFlight.length > 0) await joinNext();
        checkHere(buffer, length, final);
        return;
      }
      inFlight.push(
        threads
          .check(buffer, length, final, blockOptions)
          .then(({ buffer: back, block }) => ({ buffer: back, length, final, block })),
      );
      // Two blocks queued per thread keep them busy without holding the file in memory.
      while (inFlight.length > 2 * threads.size) await joinNext();
    });
    while (inFlight.length > 0) await joinNext();
  } finally {
    await threads?.close();
  }
  return verifier.finish();
}

export interface RouterFilesResult extends RouterVerifyResult {
  /** `verified` when every file's anchor is signed by a supplied key valid at its time. */
  authorship: Authorship['status'];
  /** Files written before anchors (no instance in the name) that have none: cuts go unseen there. */
  unanchored_files: string[];
}

async function readAnchor(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The date of the earliest day file that has an anchor, or undefined when none has. */
function earliestAnchoredDate(
  files: readonly string[],
  anchors: ReadonlyArray<string | undefined>,
): string | undefined {
  const dates = files
    .filter((_, i) => anchors[i] !== undefined)
    .map((file) => ROUTER_DAY_FILE.exec(basename(file))?.[1])
    .filter((date): date is string => date !== undefined);
  return dates.sort()[0];
}

/**
 * Verifies router receipt files: each path is a file, or a directory whose `*.receipts.jsonl`
 * files (any instances') are all checked in name order. Each file is its own chain and must match
 * the anchor beside it. Findings name the file by its path.
 */
export async function verifyRouterReceiptFiles(
  pathsOrDir: string | readonly string[],
  options: { maxErrors?: number; keys?: readonly TrustedKey[] } = {},
): Promise<RouterFilesResult> {
  const files = await expandReceiptPaths(
    typeof pathsOrDir === 'string' ? [pathsOrDir] : pathsOrDir,
  );
  const results: RouterVerifyResult[] = [];
  const statuses = new Set<Authorship['status']>();
  const unanchored: string[] = [];
  const anchors = await Promise.all(files.map((file) => readAnchor(routerAnchorFileName(file))));
  const anchorsSince = earliestAnchoredDate(files, anchors);
  for (const [index, file] of files.entries()) {
    const result = await verifyRouterReceiptLines(readLines(file), {
      maxErrors: options.maxErrors,
      fileName: file,
    });
    const anchor = checkRouterAnchor(
      anchors[index],
      {
        path: file,
        name: basename(file),
        lines: result.receipts_checked,
        headChecksum: result.head_checksum_sha256,
        ...(anchorsSince === undefined ? {} : { anchorsSince }),
      },
      options.keys,
    );
    if (anchor.authorship.status === 'no_checkpoint') unanchored.push(file);
    else statuses.add(anchor.authorship.status);
    results.push({
      ...result,
      ok: result.ok && anchor.errors.length === 0,
      errors: [...result.errors, ...anchor.errors],
    });
  }
  const merged = mergeRouterResults(results);
  const authorship: Authorship['status'] =
    statuses.size === 0
      ? 'no_checkpoint'
      : statuses.size === 1
        ? [...statuses][0]!
        : statuses.has('failed')
          ? 'failed'
          : 'not_checked';
  return { ...merged, authorship, unanchored_files: unanchored };
}
