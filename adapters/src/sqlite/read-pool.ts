import type { Sql } from '../sql/sql.js';
import { scoped } from '../sql/sql.js';
import type { DurableCommits } from './durable-commits.js';
import { openDriver, type Driver } from './driver.js';

/** Any read starts the transaction's snapshot; BEGIN alone (deferred) takes none. */
const TAKE_SNAPSHOT = 'SELECT 1 FROM sqlite_schema LIMIT 1';

/** BEGIN and the snapshot, both run before this returns (the driver is synchronous). */
const startSnapshot = (driver: Driver) => [driver.sql.run('BEGIN'), driver.sql.get(TAKE_SNAPSHOT)];

type Commits = Pick<DurableCommits, 'pending' | 'aroundEachCommit'>;

/**
 * The writer connection's `PRAGMA data_version`: it changes when another connection commits (a
 * second server on the same file, a maintenance command), never with the writer's own commits.
 */
export type WriterDataVersion = () => Promise<number>;

/** Ends the connection's transaction with `statement`, or ROLLBACK if even that fails; never rejects. */
const endTransaction = (driver: Driver, statement: 'COMMIT' | 'ROLLBACK') =>
  driver.sql
    .run(statement)
    .catch(() => driver.sql.run('ROLLBACK'))
    .then(
      () => undefined,
      () => undefined,
    );

/**
 * Read transactions on their own read-only connections: in WAL mode a reader sees the last commit
 * made before its first statement and nothing later, never the writer's uncommitted batch, and
 * never waits for the writer's batch. It never sees a write a power loss could take back: just
 * before each COMMIT one idle connection takes its snapshot (the last durable state), and every
 * read that comes while that commit's log is being synced (durable-commits.ts) runs on it, one
 * after another, its snapshot kept between them; a read that finds it busy waits for the sync.
 * One connection is enough: a read's statements run synchronously, so reads seldom overlap, and
 * pinning every idle connection cost three statements each per commit, most of them unused.
 * Another connection may commit after the pinned snapshot was taken, and have answered its caller:
 * a read that finds the writer's data_version changed since the pin leaves that snapshot and waits
 * for the sync, as when it finds the connection busy.
 * A read that tries to write fails (the connection is read-only).
 */
export class ReadPool {
  private readonly idle: Driver[];
  private readonly waiting: ((driver: Driver) => void)[] = [];
  private active = 0;
  private drained: (() => void) | null = null;
  private closed = false;
  /** The idle connection whose open transaction took its snapshot just before the syncing COMMIT. */
  private pinned: Driver | null = null;
  /** Counts COMMITs, so a read on the pinned snapshot knows whether its commit is still syncing. */
  private commitNumber = 0;
  /** The writer's data_version when the pinned snapshot was taken. */
  private pinnedVersion = -1;

  private constructor(
    private readonly drivers: Driver[],
    private readonly commits: Commits,
    private readonly writerVersion: WriterDataVersion,
  ) {
    this.idle = [...drivers];
    commits.aroundEachCommit(
      () => this.pinOne(),
      () => this.unpin(),
    );
  }

  static async open(
    file: string,
    size: number,
    commits: Commits,
    writerVersion: WriterDataVersion,
  ): Promise<ReadPool> {
    const drivers: Driver[] = [];
    try {
      for (let i = 0; i < size; i += 1) drivers.push(await openDriver(file, true));
    } catch (error) {
      await Promise.all(drivers.map((d) => d.close()));
      throw error;
    }
    return new ReadPool(drivers, commits, writerVersion);
  }

  async read<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('storage is closed');
    this.active += 1;
    // The pinned snapshot is the state before the commit still syncing: durable, and all a read
    // that comes now may see (unpin ends it once that commit is durable).
    let pinned = this.pinned;
    this.pinned = null;
    const pinnedAt = this.commitNumber;
    // A writer that cannot answer (closing) counts as changed: the read takes its own snapshot.
    const changed = (version: number) => version !== this.pinnedVersion;
    if (pinned !== null && (await this.writerVersion().then(changed, () => true))) {
      this.endSnapshot(pinned, 'COMMIT');
      pinned = null;
    }
    const driver =
      pinned ?? this.idle.pop() ?? (await new Promise<Driver>((r) => this.waiting.push(r)));
    const handle = scoped(driver.sql);
    let result: T;
    try {
      if (pinned === null) await this.takeSnapshot(driver);
      result = await fn(handle.sql);
    } catch (error) {
      await handle.end();
      await this.finish(driver, 'ROLLBACK');
      throw error;
    }
    await handle.end();
    if (pinned !== null && this.keepsPin(pinnedAt)) {
      this.pinned = pinned;
      this.release(null);
      return result;
    }
    // A read-only transaction has nothing to commit: the caller is answered now, and the
    // connection returns to the pool once its COMMIT ends the snapshot (one round trip less).
    void this.finish(driver, 'COMMIT');
    return result;
  }

  /** A read done on the pinned snapshot hands it on while the same commit syncs and nobody waits. */
  private keepsPin(pinnedAt: number): boolean {
    return (
      this.commitNumber === pinnedAt &&
      this.commits.pending !== null &&
      this.pinned === null &&
      this.waiting.length === 0 &&
      !this.closed
    );
  }

  /** Opens the read's transaction once no commit is syncing. */
  private async takeSnapshot(driver: Driver): Promise<void> {
    for (let held = this.commits.pending; held !== null; held = this.commits.pending) await held;
    // No await between the last look and the snapshot: the writer cannot commit in between.
    await Promise.all(startSnapshot(driver));
  }

  /**
   * Just before a COMMIT: one idle connection takes a snapshot of the last durable state (at once,
   * the driver being synchronous), and serves reads once that snapshot is known to be open.
   */
  private pinOne(): void {
    this.commitNumber += 1;
    const commit = this.commitNumber;
    const driver = this.idle.pop();
    if (driver === undefined) return;
    // Read inside the writer's transaction: the version of the state the snapshot holds.
    const version = this.writerVersion();
    void Promise.all([Promise.all(startSnapshot(driver)), version]).then(
      ([, pinnedVersion]) => {
        if (this.commitNumber === commit && this.commits.pending !== null && !this.closed) {
          this.pinned = driver;
          this.pinnedVersion = pinnedVersion;
        } else this.endSnapshot(driver, 'COMMIT');
      },
      () => this.endSnapshot(driver, 'ROLLBACK'),
    );
  }

  /**
   * Once the commit is durable (or failed): the pinned connection ends its snapshot, which would
   * otherwise keep checkpoints from copying the log's newer pages and the log from starting over.
   */
  private unpin(): void {
    const driver = this.pinned;
    if (driver === null) return;
    this.pinned = null;
    this.endSnapshot(driver, 'COMMIT');
  }

  /** Ends a snapshot no read holds, then hands the connection on. */
  private endSnapshot(driver: Driver, statement: 'COMMIT' | 'ROLLBACK'): void {
    void endTransaction(driver, statement).then(() => this.handOn(driver));
  }

  /** Ends a read's transaction, then releases its connection to a waiting read or the pool. */
  private async finish(driver: Driver, statement: 'COMMIT' | 'ROLLBACK'): Promise<void> {
    await endTransaction(driver, statement);
    this.release(driver);
  }

  /** A read is done: its connection (null when it stays pinned) goes on to a waiting read or the pool. */
  private release(driver: Driver | null): void {
    this.active -= 1;
    if (driver !== null) this.handOn(driver);
    if (this.active === 0) this.drained?.();
  }

  private handOn(driver: Driver): void {
    const next = this.waiting.shift();
    if (next !== undefined) next(driver);
    else this.idle.push(driver);
  }

  /** Waits for running reads, then closes every connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.active > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    await this.pinned?.sql.run('COMMIT').catch(() => undefined);
    this.pinned = null;
    await Promise.all(this.drivers.map((d) => d.close()));
  }
}
