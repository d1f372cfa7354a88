import type { Sql } from '../sql/sql.js';
import type { EndWith } from '../sql/write-transaction.js';
import { openDriver, type Driver } from './driver.js';
import { GroupCommit, type BatchObserver } from './group-commit.js';

export type { Sql, SqlParam } from '../sql/sql.js';

/**
 * The one read-write better-sqlite3 connection (WAL, synchronous=FULL, foreign keys on). Its write
 * transactions are group-committed (see group-commit.ts); `sql` is the raw handle, for migrations'
 * first statement and for tests.
 */
export class Connection {
  private closed = false;

  private constructor(
    private readonly driver: Driver,
    readonly writer: GroupCommit,
  ) {}

  get sql(): Sql {
    return this.driver.sql;
  }

  static async open(
    file: string,
    onBatch?: BatchObserver,
    maxTransactions?: number,
  ): Promise<Connection> {
    const driver = await openDriver(file, false);
    return new Connection(driver, new GroupCommit(driver.sql, onBatch, maxTransactions));
  }

  /** Runs `fn` in its own savepoint of the next batch; settles once that batch is durable. */
  transaction<T>(fn: (sql: Sql, endWith: EndWith) => Promise<T>): Promise<T> {
    return this.writer.submit(fn);
  }

  /** Commits queued transactions, then closes the connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writer.close();
    await this.driver.close();
  }
}
