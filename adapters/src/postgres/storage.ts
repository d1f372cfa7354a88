import type { Storage } from '@runledger/core/ports';
import { storageBatches, type BatchLimits } from '../batching/storage-batches.js';
import type { Sql } from '../sql/sql.js';
import { writeTransaction } from '../sql/write-transaction.js';
import { repositories } from '../sql/repositories.js';
import { checkSchemaName, Connection } from './connection.js';
import { migrate } from './migrations.js';

/** `lock(key)`: a transaction-scoped advisory lock on the key's 64-bit hash, released at COMMIT or ROLLBACK. */
function lockFor(sql: Sql): (key: string) => Promise<void> {
  return async (key) => {
    await sql.run('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
  };
}

export interface PostgresStorageOptions {
  /** e.g. postgres://user:password@host:5432/database */
  connectionString: string;
  /**
   * The schema to keep the tables in (created if missing); the connection's default search_path
   * when omitted. A plain lower-case identifier.
   */
  schema?: string;
  /**
   * Whose clock fenced lease and claim expiry compare against: the database's (default, so
   * instances with skewed clocks agree), or the caller's `now` (test worlds with a manual clock).
   */
  clock?: 'database' | 'caller';
  /** How much work may share a transaction. */
  batching?: BatchLimits;
}

/** Opens a pool, migrates the database, and returns the storage port. */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<Storage> {
  if (options.schema !== undefined) {
    checkSchemaName(options.schema);
    const setup = await Connection.open({ connectionString: options.connectionString });
    try {
      await setup.transaction((sql) => sql.exec(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`));
    } finally {
      await setup.close();
    }
  }
  const connection = await Connection.open(options);
  try {
    await migrate(connection);
  } catch (error) {
    await connection.close();
    throw error;
  }
  const write: Storage['write'] = (fn) =>
    connection.transaction((sql, endWith) =>
      fn(writeTransaction(repositories(sql), lockFor(sql), endWith)),
    );
  const read: Storage['read'] = (fn) =>
    connection.transaction((sql) => fn(repositories(sql)), 'read');
  return {
    read,
    write,
    ...storageBatches({ read, write }, options.batching),
    close: () => connection.close(),
  };
}
