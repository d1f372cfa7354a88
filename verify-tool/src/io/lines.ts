import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { VerifyError } from '../errors.js';
import { forEachLineIn } from '../platform/export-lines.js';

const CHUNK = 1 << 20;

/**
 * Calls `onLine(buffer, start, end)` for each line of a file (without its newline, a trailing
 * `\r` dropped), reading it in 1 MiB chunks and splitting on newline bytes, one line at a time
 * (awaiting `onLine` when it returns a promise). An unreadable file throws `unreadable_input`.
 */
export async function forEachLineBytes(
  path: string,
  onLine: (buffer: Buffer, start: number, end: number) => void | Promise<void>,
): Promise<void> {
  let spare: Buffer | undefined;
  const take = (minSize: number) => {
    const reused = spare !== undefined && spare.length >= minSize ? spare : undefined;
    spare = undefined;
    return reused ?? Buffer.allocUnsafe(minSize);
  };
  await forEachLineBlock(path, CHUNK, take, async (buffer, length, final) => {
    const bounds: number[] = [];
    forEachLineIn(buffer, 0, length, final, (start, end) => bounds.push(start, end));
    for (let i = 0; i < bounds.length; i += 2) {
      const pending = onLine(buffer, bounds[i] as number, bounds[i + 1] as number);
      if (pending !== undefined) await pending;
    }
    spare = buffer;
  });
}

/**
 * Calls `onBlock(buffer, length, final)` with blocks of about `blockSize` bytes holding whole
 * lines: `buffer[0, length)` ends with a newline, except for the last block (`final`), which holds
 * what follows the file's last newline. Each block gets a buffer of its own, which the callee owns
 * (it may hand it to a worker thread); `take()` supplies them, reusing returned ones.
 */
export async function forEachLineBlock(
  path: string,
  blockSize: number,
  take: (minSize: number) => Buffer,
  onBlock: (buffer: Buffer, length: number, final: boolean) => void | Promise<void>,
): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
    if (!(await handle.stat()).isFile()) throw new Error('not a regular file');
  } catch (error) {
    await handle?.close();
    throw unreadable(path, error);
  }
  try {
    let buffer = take(blockSize);
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) {
        // One line longer than the buffer: grow it.
        const bigger = take(buffer.length * 2);
        buffer.copy(bigger, 0, 0, filled);
        buffer = bigger;
      }
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null));
      } catch (error) {
        throw unreadable(path, error);
      }
      if (bytesRead === 0) {
        if (filled > 0) await onBlock(buffer, filled, true);
        return;
      }
      const end = filled + bytesRead;
      const last = buffer.lastIndexOf(10, end - 1);
      if (last < filled) {
        filled = end;
        continue;
      }
      const next = take(Math.max(blockSize, 2 * (end - last - 1)));
      buffer.copy(next, 0, last + 1, end);
      await onBlock(buffer, last + 1, false);
      buffer = next;
      filled = end - last - 1;
    }
  } finally {
    await handle.close();
  }
}

function unreadable(path: string, error: unknown): VerifyError {
  return new VerifyError('unreadable_input', `cannot read ${path}: ${(error as Error).message}`, {
    cause: error,
  });
}

const STOPPED = new Error('stopped');

/**
 * Lines of a text file (without their newlines), streamed in batches so a million lines do not
 * cost a million promise round trips; an unreadable file throws `unreadable_input`.
 */
export async function* readLines(path: string): AsyncGenerator<string> {
  const batches: string[][] = [];
  let batch: string[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  let failure: unknown;
  let consumed: (() => void) | undefined;
  let stopped = false;
  const reading = forEachLineBytes(path, (buffer, start, end) => {
    if (stopped) throw STOPPED;
    batch.push(buffer.toString('utf8', start, end));
    if (batch.length < 4096) return undefined;
    batches.push(batch);
    batch = [];
    wake?.();
    // Back-pressure: wait until the consumer took what is queued.
    return batches.length > 4 ? new Promise<void>((resolve) => (consumed = resolve)) : undefined;
  }).then(
    () => {
      done = true;
      wake?.();
    },
    (error: unknown) => {
      if (error !== STOPPED) failure = error;
      done = true;
      wake?.();
    },
  );
  try {
    for (;;) {
      const next = batches.shift();
      if (next !== undefined) {
        consumed?.();
        consumed = undefined;
        yield* next;
        continue;
      }
      if (done) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    if (failure !== undefined) throw failure;
    yield* batch;
  } finally {
    // The consumer may stop early (e.g. after reading a header): stop reading too.
    stopped = true;
    consumed?.();
    await reading;
  }
}

/** `*.receipts.jsonl` files of a directory, in name (so date, then instance) order. */
export async function listReceiptFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir);
  return names
    .filter((name) => name.endsWith('.receipts.jsonl'))
    .sort()
    .map((name) => join(dir, name));
}

/** Expands directories into their receipt files; files stay as given. Missing paths throw `unreadable_input`. */
export async function expandReceiptPaths(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      throw unreadable(path, error);
    }
    if (info.isDirectory()) files.push(...(await listReceiptFiles(path)));
    else files.push(path);
  }
  if (files.length === 0) {
    throw new VerifyError('unreadable_input', `no *.receipts.jsonl files in ${paths.join(', ')}`);
  }
  return files;
}
