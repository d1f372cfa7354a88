import type { Sql } from '../sql/sql.js';
import { scoped } from '../sql/sql.js';
import { openDriver, type Driver } from './driver.js';

/**
 * Read transactions on their own read-only connections: in WAL mode a reader sees the last commit
 * made before its first statement and nothing later, never the writer's uncommitted batch, and
 * never waits for the writer. A read that tries to write fails (the connection is read-only).
 */
export class ReadPool {
  private readonly idle: Driver[];
  private readonly waiting: ((driver: Driver) => void)[] = [];
  private active = 0;
  private drained: (() => void) | null = null;
  private closed = false;

  private constructor(private readonly drivers: Driver[]) {
    this.idle = [...drivers];
  }

  static async open(file: string, size: number): Promise<ReadPool> {
    const drivers: Driver[] = [];
    try {
      for (let i = 0; i < size; i += 1) drivers.push(await openDriver(file, true));
    } catch (error) {
      await Promise.all(drivers.map((d) => d.close()));
      throw error;
    }
    return new ReadPool(drivers);
  }

  async read<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('storage is closed');
    this.active += 1;
    const driver = this.idle.pop() ?? (await new Promise<Driver>((r) => this.waiting.push(r)));
    try {
      const handle = scoped(driver.sql);
      await driver.sql.run('BEGIN');
      try {
        return await fn(handle.sql);
      } finally {
        handle.end();
        await driver.sql.run('COMMIT');
      }
    } finally {
      this.release(driver);
    }
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
