import { createHash } from 'node:crypto';
import type { Storage, WriteTransaction } from '@runledger/core';
import type { Sql } from '../sqlite/connection.js';
import { repositories } from '../sqlite/repositories.js';
import { checkSchemaName, Connection } from './connection.js';
import { migrate } from './migrations.js';

export interface PostgresStorageOptions {
  /** e.g. postgres://user:password@host:5432/database */
  connectionString: string;
  /**
   * The schema to keep the tables in (created if missing); the connection's default search_path
   * when omitted. A plain lower-case identifier.
   */
  schema?: string;
}

/** A lock key as pg_advisory_xact_lock's 64-bit key: the first 8 bytes of its SHA-256, signed. */
export function advisoryLockId(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest().readBigInt64BE(0).toString();
}

/** The write transaction's repositories plus `lock`: a transaction-scoped advisory lock. */
function writeTransaction(sql: Sql): WriteTransaction {
  return {
    ...repositories(sql),
    lock: async (key) => {
      await sql.run('SELECT pg_advisory_xact_lock(CAST(? AS bigint))', [advisoryLockId(key)]);
    },
  };
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
  const write = <T>(fn: (tx: WriteTransaction) => Promise<T>): Promise<T> =>
    connection.transaction((sql) => fn(writeTransaction(sql)));
  return {
    // One snapshot for every statement of the read, and a write inside it is refused.
    read: (fn) =>
      connection.transaction(async (sql) => {
        await sql.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
        return fn(repositories(sql));
      }),
    write,
    transaction: write,
    close: () => connection.close(),
  };
}
