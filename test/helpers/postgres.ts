import { randomBytes } from 'node:crypto';
import { openPostgresStorage } from '@runledger/adapters';
import type { Storage } from '@runledger/core/ports';
import pg from 'pg';
import { afterAll } from 'vitest';

/**
 * PostgreSQL for tests. Each test file that uses it creates its own database on first use and drops
 * it when the file ends; each world or server gets a fresh schema inside it. The server at
 * TEST_DATABASE_URL (default: the local one CI runs) must be reachable: if it is not, the tests fail
 * and say so. A machine without PostgreSQL opts out with RUNLEDGER_TEST_SKIP_POSTGRES=1.
 */
export const POSTGRES_URL =
  process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

export const postgresSkipped = process.env['RUNLEDGER_TEST_SKIP_POSTGRES'] === '1';

/** The engines a parametrized world runs on: PostgreSQL unless explicitly opted out. */
export const engines: readonly Engine[] = postgresSkipped ? ['sqlite'] : ['sqlite', 'postgres'];
export type Engine = 'sqlite' | 'postgres';

if (postgresSkipped) {
  console.warn(
    'RUNLEDGER_TEST_SKIP_POSTGRES=1: the PostgreSQL variants of these tests are skipped.',
  );
}

async function admin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `PostgreSQL is not reachable at ${url} (${reason}). Start it, point TEST_DATABASE_URL at ` +
        'one, or set RUNLEDGER_TEST_SKIP_POSTGRES=1 on a machine without it.',
      { cause: error },
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

let database: Promise<string> | null = null;

/** This file's database (created on first call), as a connection URL. */
export function testDatabaseUrl(): Promise<string> {
  database ??= (async () => {
    const name = `rl_test_${randomBytes(6).toString('hex')}`;
    await admin(POSTGRES_URL, (c) => c.query(`CREATE DATABASE ${name}`));
    return withDatabase(POSTGRES_URL, name);
  })();
  return database;
}

afterAll(async () => {
  if (database === null) return;
  const url = await database.catch(() => null);
  database = null;
  if (url === null) return;
  const name = new URL(url).pathname.slice(1);
  await admin(POSTGRES_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
});

/** A new, empty schema in this file's database. */
export async function freshSchema(): Promise<{ url: string; schema: string }> {
  const url = await testDatabaseUrl();
  const schema = `s_${randomBytes(6).toString('hex')}`;
  await admin(url, (c) => c.query(`CREATE SCHEMA ${schema}`));
  return { url, schema };
}

/**
 * A connection URL whose connections use a new, empty schema: what a server process is given as
 * DATABASE_URL, so several servers share one database and tests stay apart.
 */
export async function freshSchemaUrl(): Promise<string> {
  const { url, schema } = await freshSchema();
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

/** A migrated storage over a new schema; the schema goes with the database when the file ends. */
export async function openFreshPostgres(): Promise<Storage> {
  const { url, schema } = await freshSchema();
  return openPostgresStorage({ connectionString: url, schema, clock: 'caller' });
}
