import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** At most one checkpoint starts per this many milliseconds while writes go on. */
export const CHECKPOINT_INTERVAL_MS = 200;

/**
 * The worker's program: its own connection to the database, one PASSIVE checkpoint per message
 * (copies what the log holds into the database file without waiting for readers or the writer,
 * syncing the log before and the database after), its outcome posted back. CommonJS, because
 * an `eval` worker is a script.
 */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 5000 });
db.pragma('synchronous = FULL');
parentPort.on('message', () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String(error && error.message) });
  }
});
`;

/**
 * Checkpoints of the SQLite write-ahead log on a worker thread. The writer connection runs with
 * wal_autocheckpoint=0: a checkpoint on the writer would stop the event loop for its two fsyncs
 * and its copying (100-250 ms on a loaded disk, every thousand pages). After each batch the
 * writer calls `request()`; a checkpoint starts if none is running and none started in the last
 * CHECKPOINT_INTERVAL_MS. A checkpoint that fails (a full disk) leaves the log to grow and is
 * tried again after the next batch; the log's frames stay the database's until then.
 */
export class Checkpointer {
  private running = false;
  private lastStart = 0;
  private idle: (() => void) | null = null;
  /** Checkpoints completed and failed, for tests and the bench. */
  readonly stats = { done: 0, failed: 0 };

  private constructor(private readonly worker: Worker) {
    worker.unref();
    worker.on('message', (outcome: { ok: boolean }) => {
      this.running = false;
      if (outcome.ok) this.stats.done += 1;
      else this.stats.failed += 1;
      this.idle?.();
    });
    worker.on('error', () => {
      this.running = false;
      this.stats.failed += 1;
      this.idle?.();
    });
  }

  static start(file: string): Checkpointer {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    return new Checkpointer(new Worker(PROGRAM, { eval: true, workerData: { file, driver } }));
  }

  /** Starts a checkpoint unless one is running or started less than the interval ago. */
  request(now = Date.now()): void {
    if (this.running || now - this.lastStart < CHECKPOINT_INTERVAL_MS) return;
    this.running = true;
    this.lastStart = now;
    this.worker.postMessage('checkpoint');
  }

  /** Waits for a running checkpoint, then stops the worker (closing the writer checkpoints the rest). */
  async close(): Promise<void> {
    if (this.running) await new Promise<void>((resolve) => (this.idle = resolve));
    await this.worker.terminate();
  }
}
