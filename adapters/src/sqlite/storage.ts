import type { Storage } from '@runledger/core/ports';
import { Connection } from './connection.js';
import { migrate } from './migrations.js';
import { repositories } from './repositories.js';

export interface SqliteStorageOptions {
  /** A file path (WAL mode); the directory must exist. */
  file: string;
}

/** Opens (creating if needed) and migrates the SQLite database, and returns the storage port. */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<Storage> {
  const connection = await Connection.open(options.file);
  try {
    await migrate(connection);
  } catch (error) {
    await connection.close();
    throw error;
  }
  return {
    transaction: (fn) => connection.transaction((sql) => fn(repositories(sql))),
    close: () => connection.close(),
  };
}
