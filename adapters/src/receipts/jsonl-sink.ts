import { mkdir, open, stat, truncate, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { GENESIS_PARENT, formatRouterReceiptLine, sealRouterReceipt } from '@runledger/core';
import type { ReceiptSink, RouterReceiptInput, RouterReceiptLine } from '@runledger/core/ports';
import { syncPath } from '../files/durable.js';
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

export const receiptFileName = (date: string) => `${date}.receipts.jsonl`;

/**
 * Router receipts as one JSON object per line in `dir/YYYY-MM-DD.receipts.jsonl` (UTC date of created_at).
 * Appends are queued and written in batches: one write and one fsync acknowledge every line of a batch,
 * so throughput grows with load while each promise still resolves only after its line is on disk.
 * On open, each day file resumes from its last complete line; a torn final line from a crash is cut off.
 */
export async function openJsonlReceiptSink(dir: string): Promise<JsonlReceiptSink> {
  await mkdir(dir, { recursive: true });
  const releaseLock = await acquireWriterLock(join(dir, '.writer.lock'));
  let current: DayFile | null = null;
  let queue: Pending[] = [];
  let flushing: Promise<void> | null = null;
  let closed = false;

  async function openDay(date: string): Promise<DayFile> {
    const path = join(dir, receiptFileName(date));
    let seq = 0;
    let lastChecksum = GENESIS_PARENT;
    const existing = await stat(path).catch(() => null);
    if (existing !== null && existing.size > 0) {
      const tail = await readTail(path);
      if (tail.completeLength < tail.size) await truncate(path, tail.completeLength);
      if (tail.lastLine !== null) {
        const last = JSON.parse(tail.lastLine) as RouterReceiptLine;
        seq = last.seq;
        lastChecksum = last.checksum_sha256;
      }
    }
    const handle = await open(path, 'a', 0o644);
    if (existing === null) await syncPath(dir);
    return { date, path, handle, seq, lastChecksum };
  }

  async function dayFor(createdAt: string): Promise<DayFile> {
    const date = createdAt.slice(0, 10);
    if (current?.date === date) return current;
    if (current !== null) await current.handle.close();
    current = await openDay(date);
    return current;
  }

  async function writeBatch(batch: Pending[]): Promise<void> {
    // Lines are grouped by day; a batch that crosses midnight writes and syncs each file in turn.
    let index = 0;
    while (index < batch.length) {
      const file = await dayFor(batch[index]!.input.created_at);
      const sealed: RouterReceiptLine[] = [];
      let text = '';
      let { seq, lastChecksum } = file;
      while (index < batch.length && batch[index]!.input.created_at.slice(0, 10) === file.date) {
        const line = sealRouterReceipt(
          { ...batch[index]!.input, seq: seq + 1 },
          lastChecksum,
        ) as RouterReceiptLine;
        sealed.push(line);
        text += `${formatRouterReceiptLine(line)}\n`;
        seq = line.seq;
        lastChecksum = line.checksum_sha256;
        index += 1;
      }
      await file.handle.write(text);
      await file.handle.datasync();
      file.seq = seq;
      file.lastChecksum = lastChecksum;
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
        // Nothing of a failed batch is acknowledged; reopen the day file so its state is re-read from disk.
        for (const pending of batch) pending.reject(error);
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
    async recentReceiptIds(date, lines) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`not a receipt file date: ${date}`);
      const tail = await readLastLines(join(dir, receiptFileName(date)), lines);
      const ids = new Set<string>();
      for (const line of tail) {
        const parsed = JSON.parse(line) as { receipt_id?: unknown };
        if (typeof parsed.receipt_id === 'string') ids.add(parsed.receipt_id);
      }
      return ids;
    },
    async close() {
      closed = true;
      await flushing;
      if (current !== null) await current.handle.close();
      current = null;
      await releaseLock();
    },
  };
}
