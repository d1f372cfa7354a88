import type { Sql } from '../sql/sql.js';
import { scoped } from '../sql/sql.js';
import type { DurableCommits } from './durable-commits.js';
import { openDriver, type Driver } from './driver.js';

/** Any read starts the transaction's snapshot; BEGIN alone (deferred) takes none. */
const TAKE_SNAPSHOT = 'SELECT 1 FROM sqlite_schema LIMIT 1';

/**
 * Read transactions on their own read-only connections: in WAL mode a reader sees the last commit
 * made before its first statement and nothing later, never the writer's uncommitted batch, and
 * never waits for the writer's batch. It does wait while a commit is being synced (durable-commits.ts),
 * so it never sees a write a power loss could take back. A read that tries to write fails (the
 * connection is read-only).
 */
export class ReadPool {
  private readonly idle: Driver[];
  private readonly waiting: ((driver: Driver) => void)[] = [];
  private active = 0;
  private drained: (() => void) | null = null;
  private closed = false;

  private constructor(
    private readonly drivers: Driver[],
    private readonly commits: Pick<DurableCommits, 'pending'>,
  ) {
    this.idle = [...drivers];
  }

  static async open(
    file: string,
    size: number,
    commits: Pick<DurableCommits, 'pending'>,
  ): Promise<ReadPool> {
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
    let result: T;
    try {
      for (let held = this.commits.pending; held !== null; held = this.commits.pending) await held;
      // No await between the last look and the snapshot: the writer cannot commit in between.
      const begun = [driver.sql.run('BEGIN'), driver.sql.get(TAKE_SNAPSHOT)];
      await Promise.all(begun);
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
    await Promise.all(this.drivers.map((d) => d.close()));
  }
}
