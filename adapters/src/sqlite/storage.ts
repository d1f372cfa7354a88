import type { Repositories, Storage, WriteTransaction } from '@runledger/core';
import { Connection, type Sql } from './connection.js';
import { migrate } from './migrations.js';
import { repositories } from './repositories.js';

export interface SqliteStorageOptions {
  /** A file path (WAL mode); the directory must exist. */
  file: string;
}

/**
 * Opens (creating if needed) and migrates the SQLite database, and returns the storage port.
 * Reads and writes share the one serialized connection: a read runs with `query_only` on, so a
 * write inside it throws; `lock` is free, since no two transactions ever overlap.
 */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<Storage> {
  const connection = await Connection.open(options.file);
  try {
    await migrate(connection);
  } catch (error) {
    await connection.close();
    throw error;
  }
  const readOnly = async <T>(sql: Sql, fn: (tx: Repositories) => Promise<T>): Promise<T> => {
    await sql.exec('PRAGMA query_only = ON');
    try {
      return await fn(repositories(sql));
    } finally {
      await sql.exec('PRAGMA query_only = OFF');
    }
  };
  const write = <T>(fn: (tx: WriteTransaction) => Promise<T>): Promise<T> =>
    connection.transaction((sql) => fn({ ...repositories(sql), lock: async () => undefined }));
  return {
    read: (fn) => connection.transaction((sql) => readOnly(sql, fn)),
    write,
    transaction: write,
    close: () => connection.close(),
  };
}
