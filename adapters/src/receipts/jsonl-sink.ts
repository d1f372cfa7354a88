import { constants } from 'node:fs';
import { mkdir, open, readdir, stat, truncate, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { GENESIS_PARENT } from '@runledger/verify';
import {
  formatRouterReceiptLine,
  sealRouterReceipt,
  ROUTER_DAY_FILE,
  routerDayFileName,
} from '@runledger/verify/router';
import type { ReceiptSink, RouterReceiptInput, RouterReceiptLine } from '@runledger/core/ports';
import { asDiskFull } from '../faults/disk-full.js';
import { syncPath } from '../files/durable.js';
import { anchorQueue } from './anchor-queue.js';
import { writeRouterAnchor, type RouterAnchoring } from './anchor-writer.js';
import { readLastLines } from './recent.js';
import { readTail } from './tail.js';
import { acquireWriterLock } from './writer-lock.js';

interface DayFile {
  date: string;
  path: string;
  handle: FileHandle;
  seq: number;
  lastChecksum: string;
}

interface Pending {
  input: RouterReceiptInput;
  resolve: (line: RouterReceiptLine) => void;
  reject: (error: unknown) => void;
}

export interface JsonlReceiptSink extends ReceiptSink {
  readonly dir: string;
  close(): Promise<void>;
}

/**
 * Day files are opened with O_DSYNC where the platform has it: each write returns once its data is
 * on disk (as write then fdatasync would, in one call instead of two). Elsewhere, each write is
 * followed by a datasync.
 */
const DSYNC = constants.O_DSYNC;
const APPEND_FLAGS =
  DSYNC === undefined ? 'a' : constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | DSYNC;

/**
 * Writes all of `text` or throws: one write(2) may write less than asked (a full disk takes what
 * fits and fails only the next write), and a short write must not pass for a durable line.
 */
async function appendAll(handle: FileHandle, text: string): Promise<void> {
  const bytes = Buffer.from(text);
  const { bytesWritten } = await handle.write(bytes);
  if (bytesWritten < bytes.length) {
    throw Object.assign(new Error(`short write: ${bytesWritten} of ${bytes.length} bytes`), {
      code: 'ENOSPC',
    });
  }
}

/** The day file name without an instance: the default, and what embedders without a key write. */
export const receiptFileName = (date: string) => `${date}.receipts.jsonl`;

const dayFileName = (date: string, instance: string | null) =>
  instance === null ? receiptFileName(date) : routerDayFileName(date, instance);

/**
 * The day files this instance re-signs when it opens. Unnamed files from before anchors existed may
 * share the folder with the default's unnamed files: those dated before the first anchor in the
 * folder are left as they are (the verifier reports them as unanchored).
 */
function ownDayFiles(names: readonly string[], instance: string | null): string[] {
  const anchors = new Set(names.filter((n) => n.endsWith('.anchor')));
  const since = [...anchors].map((n) => n.slice(0, 10)).sort()[0];
  return names.filter((name) => {
    const match = ROUTER_DAY_FILE.exec(name);
    if (match === null || (match[2] ?? null) !== instance) return false;
    if (instance !== null || anchors.has(`${name}.anchor`)) return true;
    return since !== undefined && match[1]! >= since;
  });
}

/**
 * Router receipts as one JSON object per line in `dir/YYYY-MM-DD.receipts.jsonl` (UTC date of
 * created_at; `YYYY-MM-DD.<instance>.receipts.jsonl` when the anchoring names an instance), each
 * file anchored by `<file>.anchor`, a signed note over its line count and last checksum, replaced
 * behind the appends (docs/checkpoints.md#router-day-files). Without `anchoring` there is no anchor.
 * Appends are queued and written in batches: one durable write acknowledges every line of a batch,
 * so throughput grows with load while each promise still resolves only after its line is on disk.
 * The anchor is derived from the file and is not waited for (`anchorQueue`): `close` waits for it.
 * On open, each day file resumes from its last complete line; a torn final line from a crash is cut off.
 */
export async function openJsonlReceiptSink(
  dir: string,
  anchoring?: RouterAnchoring,
): Promise<JsonlReceiptSink> {
  const fileName = (date: string) => dayFileName(date, anchoring?.instance ?? null);
  const anchors =
    anchoring === undefined
      ? null
      : anchorQueue((name, state) => writeRouterAnchor(dir, name, state, anchoring));
  const anchor = (file: DayFile) =>
    anchors?.mark(fileName(file.date), { lineCount: file.seq, headChecksum: file.lastChecksum });
  await mkdir(dir, { recursive: true });
  const releaseLock = await acquireWriterLock(join(dir, '.writer.lock'));
  let current: DayFile | null = null;
  let queue: Pending[] = [];
  let flushing: Promise<void> | null = null;
  let closed = false;

  // A crash between a batch's lines and its anchor leaves an old anchor: re-sign what is on disk.
  if (anchoring !== undefined) await reanchor(dir, anchoring);

  async function dayFor(createdAt: string): Promise<DayFile> {
    const date = createdAt.slice(0, 10);
    if (current?.date === date) return current;
    if (current !== null) await current.handle.close();
    current = await openDay(dir, fileName(date), date);
    anchor(current);
    return current;
  }

  async function writeBatch(batch: Pending[]): Promise<void> {
    // Lines are grouped by day; a batch that crosses midnight writes and syncs each file in turn.
    let index = 0;
    while (index < batch.length) {
      const file = await dayFor(batch[index]!.input.created_at);
      const { sealed, text, seq, lastChecksum } = sealDay(batch, index, file);
      index += sealed.length;
      await appendAll(file.handle, text);
      if (DSYNC === undefined) await file.handle.datasync();
      file.seq = seq;
      file.lastChecksum = lastChecksum;
      anchor(file);
      const start = index - sealed.length;
      sealed.forEach((line, i) => batch[start + i]!.resolve(line));
    }
  }

  async function flush(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await writeBatch(batch);
      } catch (error) {
        // Nothing of a failed batch is acknowledged; reopen the day file so its state is re-read
        // from disk (a torn last line cut off; whole lines of the batch that did land stay, and the
        // receipt outbox skips them when it appends what the batch owed).
        for (const pending of batch) pending.reject(asDiskFull(error));
        if (current !== null) {
          await current.handle.close().catch(() => undefined);
          current = null;
        }
      }
    }
    flushing = null;
  }

  return {
    dir,
    append(input) {
      if (closed) return Promise.reject(new Error('receipt sink is closed'));
      return new Promise<RouterReceiptLine>((resolve, reject) => {
        queue.push({ input, resolve, reject });
        flushing ??= flush();
      });
    },
    recentReceiptIds: (date, lines) => recentReceiptIds(dir, fileName, date, lines),
    async close() {
      closed = true;
      await flushing;
      try {
        await anchors?.settle();
      } finally {
        if (current !== null) await current.handle.close();
        current = null;
        await releaseLock();
      }
    },
  };
}

/** A day file's state from its last complete line; a torn final line from a crash is cut off. */
async function recover(path: string): Promise<{ seq: number; lastChecksum: string } | null> {
  const existing = await stat(path).catch(() => null);
  if (existing === null) return null;
  let seq = 0;
  let lastChecksum = GENESIS_PARENT;
  if (existing.size > 0) {
    const tail = await readTail(path);
    if (tail.completeLength < tail.size) await truncate(path, tail.completeLength);
    if (tail.lastLine !== null) {
      const last = JSON.parse(tail.lastLine) as RouterReceiptLine;
      seq = last.seq;
      lastChecksum = last.checksum_sha256;
    }
  }
  return { seq, lastChecksum };
}

/** A crash between a batch's lines and its anchor leaves an old anchor: re-signs what is on disk. */
async function reanchor(dir: string, anchoring: RouterAnchoring): Promise<void> {
  const names = (await readdir(dir)).sort();
  const ours = ownDayFiles(names, anchoring.instance);
  for (const name of ours) {
    const state = await recover(join(dir, name));
    if (state === null) continue;
    await writeRouterAnchor(
      dir,
      name,
      { lineCount: state.seq, headChecksum: state.lastChecksum },
      anchoring,
    );
  }
}

/** The lines of `batch` from `index` on that fall on `file`'s day, sealed in order after its last line. */
function sealDay(batch: Pending[], index: number, file: DayFile) {
  const sealed: RouterReceiptLine[] = [];
  let text = '';
  let { seq, lastChecksum } = file;
  let at = index;
  while (at < batch.length && batch[at]!.input.created_at.slice(0, 10) === file.date) {
    const line = sealRouterReceipt(
      { ...batch[at]!.input, seq: seq + 1 },
      lastChecksum,
    ) as RouterReceiptLine;
    sealed.push(line);
    text += `${formatRouterReceiptLine(line)}\n`;
    seq = line.seq;
    lastChecksum = line.checksum_sha256;
    at += 1;
  }
  return { sealed, text, seq, lastChecksum };
}

/** The receipt ids of the last `lines` lines of a day's file. */
async function recentReceiptIds(
  dir: string,
  fileName: (date: string) => string,
  date: string,
  lines: number,
): Promise<Set<string>> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`not a receipt file date: ${date}`);
  const tail = await readLastLines(join(dir, fileName(date)), lines);
  const ids = new Set<string>();
  for (const line of tail) {
    const parsed = JSON.parse(line) as { receipt_id?: unknown };
    if (typeof parsed.receipt_id === 'string') ids.add(parsed.receipt_id);
  }
  return ids;
}

/** Opens a day file for appending, from its last complete line. */
async function openDay(dir: string, name: string, date: string): Promise<DayFile> {
  const path = join(dir, name);
  const existing = await recover(path);
  const handle = await open(path, APPEND_FLAGS, 0o644);
  if (existing === null) await syncPath(dir);
  const day = { date, path, handle, ...(existing ?? { seq: 0, lastChecksum: GENESIS_PARENT }) };
  return day;
}
