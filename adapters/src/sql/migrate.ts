import type { Dialect } from './dialect.js';
import { IDENTITY_SCHEMA } from './schema/identity.js';
import { ROUTER_SCHEMA } from './schema/router.js';
import { RUNS_SCHEMA } from './schema/runs.js';
import { TRIBUNAL_SCHEMA } from './schema/tribunal.js';
import type { Sql } from './sql.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Where migrations run: one transaction each. */
export interface MigrationTarget {
  transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
}

/**
 * Migrations 1–4, one text for both engines in the dialect's column types. Append-only: a released
 * migration never changes; a schema change is a new version (engine-specific where the engines
 * cannot say it alike, as migration 5).
 */
export function sharedMigrations(dialect: Dialect): Migration[] {
  const t = dialect.types;
  return [
    { version: 1, name: 'identity', sql: IDENTITY_SCHEMA(t) },
    { version: 2, name: 'runs and receipts', sql: RUNS_SCHEMA(t) },
    { version: 3, name: 'router', sql: ROUTER_SCHEMA(t) },
    { version: 4, name: 'tribunal', sql: TRIBUNAL_SCHEMA(t) },
  ];
}

/** Applies the migrations not yet recorded in schema_migrations, each in its own transaction. */
export async function migrate(
  target: MigrationTarget,
  dialect: Dialect,
  migrations: readonly Migration[],
): Promise<number[]> {
  const locked = async (sql: Sql) => {
    if (dialect.migrationLock !== null) await sql.run(dialect.migrationLock);
  };
  await target.transaction(async (sql) => {
    await locked(sql);
    await sql.exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version ${dialect.types.int} PRIMARY KEY,
         name TEXT NOT NULL,
         applied_at TEXT NOT NULL
       )`,
    );
  });
  const applied: number[] = [];
  for (const migration of migrations) {
    const done = await target.transaction(async (sql) => {
      await locked(sql);
      const row = await sql.get('SELECT version FROM schema_migrations WHERE version = ?', [
        migration.version,
      ]);
      if (row) return false;
      await sql.exec(migration.sql);
      await sql.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        migration.version,
        migration.name,
        new Date().toISOString(),
      ]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}
