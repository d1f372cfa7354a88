import type * as NodeFs from 'node:fs';
import type * as NodeOs from 'node:os';
import type * as NodeUrl from 'node:url';
import type * as NodeWorkerThreads from 'node:worker_threads';
import type { BlockCheckOptions, CheckedBlock } from '../export/block.js';
import { nodeBuiltin } from './builtin.js';
import { checkBlockBytes } from './check-block.js';
import type { BlockReply, BlockRequest } from './export-worker.js';

// Looked up, not imported: in a browser bundle they are undefined and nothing runs in threads.
const fs = nodeBuiltin<typeof NodeFs>('node:fs');
const os = nodeBuiltin<typeof NodeOs>('node:os');
const url = nodeBuiltin<typeof NodeUrl>('node:url');
const threads = nodeBuiltin<typeof NodeWorkerThreads>('node:worker_threads');

// Through a variable, so that bundlers do not take the worker script for an asset of a browser build.
const WORKER_FILE = './export-worker.js';
const WORKER_URL = new URL(WORKER_FILE, import.meta.url);
/**
 * Each worker's heap is kept small: its garbage dies within a line, and it never holds more than
 * one block (the caller keeps blocks of long lines to itself). Without a cap on the old
 * generation, promoted garbage piles up there for long between full collections.
 */
const LIMITS = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 };

/** Worker threads that check blocks of export lines (BlockChecker) while the caller reads on. */
export interface BlockThreads {
  /** Hands `buffer` (its first `length` bytes: whole lines) to a worker; it comes back with the verdict. */
  check(
    buffer: Buffer,
    length: number,
    final: boolean,
    options: BlockCheckOptions,
  ): Promise<{ buffer: Buffer; block: CheckedBlock }>;
  close(): Promise<void>;
  readonly size: number;
}

/** One thread per core, at most four: the reading thread mostly waits on them. */
export function defaultThreadCount(): number {
  return threads === undefined || os === undefined ? 0 : Math.min(os.availableParallelism(), 4);
}

/**
 * Starts `count` worker threads (none for 0). When the compiled worker script is not beside this
 * module (the package run from its TypeScript sources, as in unit tests) the blocks are checked
 * the same way in this thread instead.
 */
export function startBlockThreads(count: number): BlockThreads | undefined {
  if (count < 1) return undefined;
  if (threads === undefined || fs === undefined || url === undefined) return inThisThread(count);
  if (!fs.existsSync(url.fileURLToPath(WORKER_URL))) return inThisThread(count);
  const { Worker } = threads;
  const waiting = new Map<
    number,
    { resolve: (reply: BlockReply) => void; reject: (e: Error) => void }
  >();
  const workers = Array.from({ length: count }, () => {
    const worker = new Worker(WORKER_URL, { resourceLimits: LIMITS });
    worker.on('message', (reply: BlockReply) => {
      const waiter = waiting.get(reply.id);
      waiting.delete(reply.id);
      waiter?.resolve(reply);
    });
    worker.on('error', (error) => {
      for (const waiter of waiting.values()) waiter.reject(error);
      waiting.clear();
    });
    return worker;
  });
  let next = 0;
  return {
    check(buffer, length, final, options) {
      const id = next;
      next += 1;
      const worker = workers[id % workers.length] as NodeWorkerThreads.Worker;
      const reply = new Promise<BlockReply>((resolve, reject) =>
        waiting.set(id, { resolve, reject }),
      );
      const ab = buffer.buffer as ArrayBuffer;
      const request: BlockRequest = { id, buffer: ab, length, final, options };
      worker.postMessage(request, [ab]);
      return reply.then((r) => ({ buffer: Buffer.from(r.buffer), block: r.block }));
    },
    size: count,
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

function inThisThread(size: number): BlockThreads {
  return {
    size,
    check: (buffer, length, final, options) =>
      Promise.resolve({ buffer, block: checkBlockBytes(buffer, length, final, options) }),
    close: () => Promise.resolve(),
  };
}
