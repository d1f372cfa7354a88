import type { Repositories, Storage } from '@runledger/core/ports';
import type { Sql } from '../sqlite/connection.js';
import { repositories as sharedRepositories } from '../sqlite/repositories.js';
import { checkSchemaName, Connection } from './connection.js';
import { jobsRepository, membershipsRepository, receiptsRepository } from './locks.js';
import { migrate } from './migrations.js';

/** The shared statements, with the lock-taking versions where SQLite relied on serialized transactions. */
function repositories(sql: Sql): Repositories {
  return {
    ...sharedRepositories(sql),
    jobs: jobsRepository(sql),
    memberships: membershipsRepository(sql),
    receipts: receiptsRepository(sql),
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
  return {
    transaction: (fn) => connection.transaction((sql) => fn(repositories(sql))),
    close: () => connection.close(),
  };
}
