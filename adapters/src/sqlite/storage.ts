import type { Storage } from '@runledger/core/ports';
import { writeTransaction } from '../sql/write-transaction.js';
import { Connection } from './connection.js';
import type { BatchObserver } from './group-commit.js';
import { migrate } from './migrations.js';
import { ReadPool } from './read-pool.js';
import { repositories } from '../sql/repositories.js';

export interface SqliteStorageOptions {
  /** A file path (WAL mode); the directory must exist. */
  file: string;
  /** Read-only connections serving `read` (default 4). */
  readers?: number;
  /** Told of each group-commit batch (its transactions and commit seconds), for metrics. */
  onBatchCommit?: BatchObserver;
}

/** SQLite has one writer and its batch's savepoints run one after another: every lock is already held. */
const held = (): Promise<void> => Promise.resolve();

/** Opens (creating if needed) and migrates the SQLite database, and returns the storage port. */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<Storage> {
  const connection = await Connection.open(options.file, options.onBatchCommit);
  let pool: ReadPool;
  try {
    await migrate(connection);
    pool = await ReadPool.open(options.file, options.readers ?? 4);
  } catch (error) {
    await connection.close();
    throw error;
  }
  const write: Storage['write'] = (fn) =>
    connection.transaction((sql, closeWith) =>
      fn(writeTransaction(repositories(sql), held, closeWith)),
    );
  return {
    read: (fn) => pool.read((sql) => fn(repositories(sql))),
    write,
    close: async () => {
      await connection.close();
      await pool.close();
    },
  };
}
