import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** At most one checkpoint starts per this many milliseconds while writes go on. */
export const CHECKPOINT_INTERVAL_MS = 200;

/**
 * Frames the log may hold after a checkpoint before the next one is a pause for the writer (the
 * size SQLite's own automatic checkpoint uses, 1,000 pages).
 */
export const RESTART_FRAMES = 1000;

/**
 * The worker's program: its own connection to the database, one PASSIVE checkpoint per message
 * (copies what the log holds into the database file without waiting for readers or the writer,
 * syncing the log before and the database after), its outcome and the log's frames posted back.
 * CommonJS, because an `eval` worker is a script.
 */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 5000 });
db.pragma('synchronous = FULL');
parentPort.on('message', () => {
  try {
    const [{ log, checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, left: log - checkpointed, log });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String(error && error.message) });
  }
});
`;

/**
 * A pause comes once the checkpoint before it found at most this many frames added since the one
 * before that: what the pause must copy grows with how long that checkpoint ran.
 */
export const PAUSE_FRAMES = 256;

/** Checkpoints beside the writer in a row before a pause, however fast the log grows. */
export const MAX_PRECOPIES = 3;

/** The longest wait before a worker that died is replaced, however often it died in a row. */
export const MAX_RESPAWN_DELAY_MS = 30_000;

/**
 * Checkpoints of the SQLite write-ahead log on a worker thread. The writer connection runs with
 * wal_autocheckpoint=0: a checkpoint on the writer would stop the event loop for its two fsyncs
 * and its copying (100-250 ms on a loaded disk, every thousand pages). After each batch the
 * writer calls `request()`; a checkpoint starts if none is running and none started in the last
 * CHECKPOINT_INTERVAL_MS. A checkpoint that fails (a full disk) leaves the log to grow and is
 * tried again after the next batch; the log's frames stay the database's until then. A worker
 * that dies (it could not open the database, say) is replaced at a later request, after a delay
 * that doubles with each death in a row up to MAX_RESPAWN_DELAY_MS and resets with a checkpoint
 * that succeeds, so one bad moment never ends checkpointing for the process's life.
 *
 * The log restarts from its beginning only at a write that finds every frame copied, and while the
 * writer goes on a checkpoint never catches up: under steady load the log grew by hundreds of
 * megabytes, and its appends, each extending the file, blocked the writer's COMMIT for 10-50 ms
 * in the kernel. So once a checkpoint finds RESTART_FRAMES or more in the log, a pause follows:
 * `request` returns its settling, the writer starts no batch before, and with the writer idle it
 * copies the last frames and the next write restarts the log.
 *
 * The pause copies what was written while the checkpoint before it ran, and that checkpoint's
 * copying grew with the log and the database: pauses grew from 8 to 17 ms over 20 seconds of
 * 2,000 mints a second. So before the pause come checkpoints beside the writer, each at once after
 * the last (pre-copies), each copying what was written during the one before, until one finds at
 * most PAUSE_FRAMES frames added since the previous one started, or MAX_PRECOPIES have run: the
 * pause then copies only what that short last one let pass.
 */
export class Checkpointer {
  private worker: Worker | null;
  private running = false;
  private closing = false;
  private lastStart = Number.NEGATIVE_INFINITY;
  private deathsInARow = 0;
  private respawnAt = 0;
  private restartDue = false;
  /** The due restart's pause may start before the interval: none has been tried since. */
  private restartUrgent = false;
  /** A pre-copy is due: the next request starts one at once, not after the interval. */
  private precopyDue = false;
  /** Pre-copies since the last pause, and the log's frames the last checkpoint found. */
  private precopies = 0;
  private lastLog = 0;
  private idle: (() => void) | null = null;
  private pause: (() => void) | null = null;
  /** Checkpoints completed (pre-copies and pauses among them) and failed, and workers that died. */
  readonly stats = { done: 0, precopies: 0, pauses: 0, failed: 0, deaths: 0 };

  private constructor(private readonly spawn: () => Worker) {
    this.worker = this.spawned();
  }

  static start(file: string): Checkpointer {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    return new Checkpointer(
      () => new Worker(PROGRAM, { eval: true, workerData: { file, driver } }),
    );
  }

  /** A new worker, wired to report each checkpoint's outcome and its own death. */
  private spawned(): Worker {
    const worker = this.spawn();
    worker.unref();
    worker.on('message', (outcome: { ok: boolean; left?: number; log?: number }) => {
      if (outcome.ok) {
        this.stats.done += 1;
        this.deathsInARow = 0;
        this.decideNext(this.pause !== null, outcome.log ?? 0, outcome.left ?? 0);
      } else this.stats.failed += 1;
      this.settled();
    });
    // An uncaught error in the worker ends it ('error', then 'exit'); any exit not asked for by
    // close() is a death.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.closing || this.worker !== worker) return;
      this.worker = null;
      this.stats.deaths += 1;
      this.deathsInARow += 1;
      const delay = Math.min(CHECKPOINT_INTERVAL_MS * 2 ** this.deathsInARow, MAX_RESPAWN_DELAY_MS);
      this.respawnAt = Date.now() + delay;
      if (this.running) this.stats.failed += 1;
      this.settled();
    });
    return worker;
  }

  /** After a checkpoint that copied what it could: nothing due, a pre-copy, or the pause. */
  private decideNext(wasPause: boolean, log: number, left: number): void {
    const added = log - this.lastLog;
    this.lastLog = log;
    // A pause that copied every frame needs no other: the next write restarts the log. A
    // checkpoint beside the writer may copy every frame too, but the writer has gone on by then.
    const restartWanted = log >= RESTART_FRAMES && !(wasPause && left === 0);
    if (wasPause || !restartWanted) this.precopies = 0;
    const settledDown = this.precopies > 0 && added <= PAUSE_FRAMES;
    this.precopyDue = restartWanted && !wasPause && !settledDown && this.precopies < MAX_PRECOPIES;
    this.restartDue = restartWanted && !this.precopyDue;
    // A pause that could not copy every frame (a long read holds an older snapshot) is tried
    // again only after the interval, not after every batch.
    this.restartUrgent = this.restartDue && !wasPause;
  }

  private settled(): void {
    this.running = false;
    this.pause?.();
    this.pause = null;
    this.idle?.();
  }

  /**
   * Starts a checkpoint unless one is running or, short of a restart's first pause, started less
   * than the interval ago; replaces a dead worker first once its delay has passed. Returns, for a
   * pause, when it settles (done, failed or its worker dead), else null. `now` is the caller's
   * clock (tests move it on).
   */
  request(now = Date.now()): Promise<void> | null {
    if (this.closing || this.running) return null;
    const urgent = this.restartUrgent || this.precopyDue;
    if (!urgent && now - this.lastStart < CHECKPOINT_INTERVAL_MS) return null;
    if (this.worker === null) {
      if (now < this.respawnAt) return null;
      this.worker = this.spawned();
    }
    this.running = true;
    this.lastStart = now;
    this.worker.postMessage('checkpoint');
    if (this.precopyDue) {
      this.precopyDue = false;
      this.precopies += 1;
      this.stats.precopies += 1;
      return null;
    }
    if (!this.restartDue) return null;
    this.restartDue = false;
    this.restartUrgent = false;
    this.stats.pauses += 1;
    return new Promise<void>((resolve) => (this.pause = resolve));
  }

  /** Waits for a running checkpoint, then stops the worker (closing the writer checkpoints the rest). */
  async close(): Promise<void> {
    if (this.running) await new Promise<void>((resolve) => (this.idle = resolve));
    this.closing = true;
    await this.worker?.terminate();
  }
}
