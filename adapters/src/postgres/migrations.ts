import { migrations as sqliteMigrations } from '../sqlite/migrations.js';
import type { Connection } from './connection.js';
import { portDdl } from './ddl.js';
import { INTAKE_SCHEMA_SQL } from './intake-schema.js';
import { ROUTER_SCHEMA_SQL } from './router-schema.js';
import { TRIBUNAL_SCHEMA_SQL } from './tribunal-schema.js';

interface Migration {
  version: number;
  name: string;
  sql: string;
}

function sqliteSql(version: number): string {
  const migration = sqliteMigrations.find((m) => m.version === version);
  if (!migration) throw new Error(`no SQLite migration ${version} to port`);
  return migration.sql;
}

/**
 * Append-only, with the SQLite adapter's version numbers and names: a released migration never
 * changes; a schema change is a new version in both adapters.
 */
export const migrations: readonly Migration[] = [
  { version: 1, name: 'identity', sql: portDdl(sqliteSql(1)) },
  { version: 2, name: 'runs and receipts', sql: portDdl(sqliteSql(2)) },
  { version: 3, name: 'router', sql: ROUTER_SCHEMA_SQL },
  { version: 4, name: 'tribunal', sql: TRIBUNAL_SCHEMA_SQL },
  { version: 5, name: 'incidents, payment events, dataset staging', sql: INTAKE_SCHEMA_SQL },
];

/** Any constant key: only migrators take it, so two servers starting at once migrate one after the other. */
const MIGRATION_LOCK = 7_364_021;

/** Applies the migrations not yet recorded in schema_migrations, each in its own transaction. */
export async function migrate(connection: Connection): Promise<number[]> {
  await connection.transaction(async (sql) => {
    await sql.run('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
    await sql.exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version BIGINT PRIMARY KEY,
         name TEXT NOT NULL,
         applied_at TEXT NOT NULL
       )`,
    );
  });
  const applied: number[] = [];
  for (const migration of migrations) {
    const done = await connection.transaction(async (sql) => {
      await sql.run('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
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
