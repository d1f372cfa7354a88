import type { Sql } from '../sql/sql.js';
import type { EndWith } from '../sql/write-transaction.js';
import { Checkpointer } from './checkpointer.js';
import { openDriver, type Driver } from './driver.js';
import { DurableCommits, type WalSync } from './durable-commits.js';
import { GroupCommit, type BatchObserver } from './group-commit.js';
import { MerkleTails } from './merkle-tails.js';

export type { Sql, SqlParam } from '../sql/sql.js';

const dataVersion = async (sql: Sql): Promise<number> =>
  (await sql.get<{ data_version: number }>('PRAGMA data_version'))?.data_version ?? -1;

/**
 * The one read-write better-sqlite3 connection (WAL, synchronous=NORMAL with each commit's log
 * synced off the event loop, checkpoints on a worker thread, foreign keys on). Its write
 * transactions are group-committed (see group-commit.ts); `sql` is the raw handle, for migrations'
 * first statement and for tests; `commits` is what readers wait on (read-pool.ts); `tails` is the
 * writer's copy of the Merkle trees' right edges (merkle-tails.ts).
 */
export class Connection {
  private closed = false;

  private constructor(
    private readonly driver: Driver,
    readonly writer: GroupCommit,
    readonly commits: DurableCommits,
    readonly checkpointer: Checkpointer,
    readonly tails: MerkleTails,
  ) {}

  get sql(): Sql {
    return this.driver.sql;
  }

  static async open(
    file: string,
    onBatch?: BatchObserver,
    maxTransactions?: number,
    walSync?: WalSync,
  ): Promise<Connection> {
    const driver = await openDriver(file, false);
    const commits = new DurableCommits(`${file}-wal`, walSync);
    const checkpointer = Checkpointer.start(file);
    const tails = new MerkleTails(() => dataVersion(driver.sql));
    const writer = new GroupCommit(
      driver.sql,
      commits,
      checkpointer,
      tails,
      onBatch,
      maxTransactions,
    );
    return new Connection(driver, writer, commits, checkpointer, tails);
  }

  /** `PRAGMA data_version` on this connection: it changes when another connection commits. */
  dataVersion(): Promise<number> {
    return dataVersion(this.driver.sql);
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
    await this.checkpointer.close();
    await this.commits.close();
    await this.driver.close();
  }
}
