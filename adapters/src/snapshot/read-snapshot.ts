import type { MerkleStorage } from '@runledger/core/ports';
import pg from 'pg';
import { merkleRepository } from '../sql/merkle.js';
import { postgresDialect } from '../sql/dialect.js';
import { numberPlaceholders } from '../sql/placeholders.js';
import type { Sql, SqlParam } from '../sql/sql.js';
import { openDriver } from '../sqlite/driver.js';
import { deploymentScan, type DeploymentScan } from './deployment-scan.js';

/**
 * One read transaction over a whole deployment's database, held until `close`: every query sees
 * the same instant, so a chain, its Merkle tree and the blobs they name agree with each other
 * while a server goes on writing. Nothing is written through it.
 */
export interface ReadSnapshot {
  readonly engine: 'sqlite' | 'postgres';
  readonly scan: DeploymentScan;
  /** The Merkle trees as the storage port reads them, for roots at a size (core's treeRootAt). */
  readonly merkle: MerkleStorage;
  close(): Promise<void>;
}

export interface PostgresSnapshot extends ReadSnapshot {
  /** The id `pg_dump --snapshot` takes to dump exactly this instant (pg_export_snapshot). */
  readonly snapshotId: string;
}

function snapshotOver(sql: Sql, engine: ReadSnapshot['engine'], close: () => Promise<void>) {
  return { engine, scan: deploymentScan(sql), merkle: merkleRepository(sql), close };
}

/** A read transaction on the SQLite file, opened read-only (a running server's WAL is read too). */
export async function openSqliteSnapshot(file: string): Promise<ReadSnapshot> {
  const driver = await openDriver(file, true);
  try {
    await driver.sql.exec('BEGIN');
    // A deferred transaction takes its snapshot at its first read.
    await driver.sql.get('SELECT COUNT(*) AS n FROM sqlite_master');
  } catch (error) {
    await driver.close();
    throw error;
  }
  return snapshotOver(driver.sql, 'sqlite', async () => {
    await driver.sql.exec('COMMIT').catch(() => undefined);
    await driver.close();
  });
}

// BIGINT columns arrive as numbers, as the storage adapter reads them.
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

function clientSql(client: pg.Client): Sql {
  const query = async (text: string, params: SqlParam[] = []) =>
    client.query<Record<string, unknown>>(numberPlaceholders(text), params);
  return {
    dialect: postgresDialect,
    run: async (text, params) => ({ changes: (await query(text, params)).rowCount ?? 0 }),
    get: async <T>(text: string, params?: SqlParam[]) =>
      (await query(text, params)).rows[0] as T | undefined,
    all: async <T>(text: string, params?: SqlParam[]) => (await query(text, params)).rows as T[],
    exec: async (text) => {
      await client.query(text);
    },
  };
}

/**
 * A REPEATABLE READ, READ ONLY transaction on its own connection, its snapshot exported so that
 * pg_dump can dump the same instant this snapshot reads.
 */
export async function openPostgresSnapshot(connectionString: string): Promise<PostgresSnapshot> {
  const client = new pg.Client({ connectionString, types });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const exported = await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
    const sql = clientSql(client);
    return {
      ...snapshotOver(sql, 'postgres', async () => {
        await client.query('COMMIT').catch(() => undefined);
        await client.end();
      }),
      snapshotId: exported.rows[0]!.id,
    };
  } catch (error) {
    await client.end();
    throw error;
  }
}
