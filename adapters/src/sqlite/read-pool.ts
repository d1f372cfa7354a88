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
 * Read transactions on their own read-only connections: in WAL mode a reader sees the last commit
 * made before its first statement and nothing later, never the writer's uncommitted batch, and
 * never waits for the writer's batch. It never sees a write a power loss could take back: just
 * before each COMMIT every idle connection takes its snapshot (the last durable state), and a read
 * that comes while that commit's log is being synced (durable-commits.ts) runs on one of them; with
 * none idle, it waits for the sync. A read that tries to write fails (the connection is read-only).
 */
export class ReadPool {
  private readonly idle: Driver[];
  private readonly waiting: ((driver: Driver) => void)[] = [];
  private active = 0;
  private drained: (() => void) | null = null;
  private closed = false;
  /** Idle connections whose open transaction took its snapshot just before the latest COMMIT. */
  private readonly pinned = new Set<Driver>();

  private constructor(
    private readonly drivers: Driver[],
    private readonly commits: Commits,
  ) {
    this.idle = [...drivers];
    commits.aroundEachCommit(
      () => this.pinIdle(),
      () => this.unpinIdle(),
    );
  }

  static async open(file: string, size: number, commits: Commits): Promise<ReadPool> {
    const drivers: Driver[] = [];
    try {
      for (let i = 0; i < size; i += 1) drivers.push(await openDriver(file, true));
    } catch (error) {
      await Promise.all(drivers.map((d) => d.close()));
      throw error;
    }
    return new ReadPool(drivers, commits);
  }

  async read<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('storage is closed');
    this.active += 1;
    const driver = this.idle.pop() ?? (await new Promise<Driver>((r) => this.waiting.push(r)));
    const handle = scoped(driver.sql);
    const pinned = this.pinned.delete(driver);
    let result: T;
    try {
      // A pinned snapshot is the state before the commit still syncing: durable, and all a read
      // that comes now may see (unpinIdle ends it once that commit is durable).
      if (!pinned) await this.takeSnapshot(driver);
      result = await fn(handle.sql);
    } catch (error) {
      await handle.end();
      await this.finish(driver, 'ROLLBACK');
      throw error;
    }
    await handle.end();
    // A read-only transaction has nothing to commit: the caller is answered now, and the
    // connection returns to the pool once its COMMIT ends the snapshot (one round trip less).
    void this.finish(driver, 'COMMIT');
    return result;
  }

  /** Opens the read's transaction once no commit is syncing. */
  private async takeSnapshot(driver: Driver): Promise<void> {
    for (let held = this.commits.pending; held !== null; held = this.commits.pending) await held;
    // No await between the last look and the snapshot: the writer cannot commit in between.
    await Promise.all(startSnapshot(driver));
  }

  /** Just before a COMMIT: every idle connection holds a snapshot of the last durable state. */
  private pinIdle(): void {
    for (const driver of this.idle) {
      if (this.pinned.has(driver)) continue;
      this.pinned.add(driver);
      void Promise.all(startSnapshot(driver)).catch(() => {
        this.pinned.delete(driver);
        void driver.sql.run('ROLLBACK').catch(() => undefined);
      });
    }
  }

  /**
   * Once the commit is durable (or failed): the idle connections end their snapshots, which would
   * otherwise keep checkpoints from copying the log's newer pages and the log from starting over.
   */
  private unpinIdle(): void {
    for (const driver of this.idle) {
      if (this.pinned.delete(driver)) void driver.sql.run('COMMIT').catch(() => undefined);
    }
  }

  /** Ends the connection's transaction (ROLLBACK if even that fails) and returns it to the pool. */
  private async finish(driver: Driver, statement: 'COMMIT' | 'ROLLBACK'): Promise<void> {
    await driver.sql
      .run(statement)
      .catch(() => driver.sql.run('ROLLBACK'))
      .catch(() => undefined);
    this.release(driver);
  }

  private release(driver: Driver): void {
    this.active -= 1;
    const next = this.waiting.shift();
    if (next !== undefined) next(driver);
    else this.idle.push(driver);
    if (this.active === 0) this.drained?.();
  }

  /** Waits for running reads, then closes every connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.active > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    for (const driver of this.pinned) await driver.sql.run('COMMIT').catch(() => undefined);
    this.pinned.clear();
    await Promise.all(this.drivers.map((d) => d.close()));
  }
}
