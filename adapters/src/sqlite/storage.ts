import type { Storage } from '@runledger/core/ports';
import {
  DEFAULT_BATCH_LIMITS,
  storageBatches,
  type BatchLimits,
} from '../batching/storage-batches.js';
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
  /** Told of each group-commit batch (its transactions, commit and log sync seconds), for metrics. */
  onBatchCommit?: BatchObserver;
  /** How much work may share a transaction (and, here, a group commit). */
  batching?: BatchLimits;
}

/** SQLite has one writer and its batch's savepoints run one after another: every lock is already held. */
const held = (): Promise<void> => Promise.resolve();

/** Opens (creating if needed) and migrates the SQLite database, and returns the storage port. */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<Storage> {
  const limits = { ...DEFAULT_BATCH_LIMITS, ...options.batching };
  const connection = await Connection.open(options.file, options.onBatchCommit, limits.groupCommit);
  let pool: ReadPool;
  try {
    await migrate(connection);
    pool = await ReadPool.open(options.file, options.readers ?? 4, connection.commits, () =>
      connection.dataVersion(),
    );
  } catch (error) {
    await connection.close();
    throw error;
  }
  const write: Storage['write'] = (fn) =>
    connection.transaction((sql, endWith) => {
      const repos = repositories(sql);
      const merkle = connection.tails.around(repos.merkle);
      return fn(writeTransaction({ ...repos, merkle }, held, endWith));
    });
  const read: Storage['read'] = (fn) => pool.read((sql) => fn(repositories(sql)));
  return {
    read,
    write,
    ...storageBatches({ read, write }, limits),
    close: async () => {
      await connection.close();
      await pool.close();
    },
  };
}
