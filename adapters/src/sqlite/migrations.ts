import type { Connection } from './connection.js';
import { ROUTER_SCHEMA_SQL } from './router-schema.js';

interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Append-only: a released migration never changes; a schema change is a new version. */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'identity',
    sql: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      );
      CREATE TABLE orgs (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE memberships (
        user_id TEXT PRIMARY KEY REFERENCES users(id),
        org_id TEXT NOT NULL REFERENCES orgs(id),
        role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
        created_at TEXT NOT NULL
      );
      CREATE INDEX memberships_org_page ON memberships (org_id, created_at, user_id);
      CREATE INDEX memberships_org_role ON memberships (org_id, role);
      CREATE TABLE links (
        id TEXT PRIMARY KEY,
        purpose TEXT NOT NULL CHECK (purpose IN ('sign_in', 'invite')),
        token_hash TEXT NOT NULL UNIQUE,
        email TEXT NOT NULL,
        org_id TEXT REFERENCES orgs(id),
        role TEXT CHECK (role IN ('owner', 'member')),
        created_by TEXT REFERENCES users(id),
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT,
        revoked_at TEXT
      );
      CREATE INDEX links_org_page ON links (org_id, purpose, created_at, id);
      CREATE INDEX links_email ON links (email, purpose, created_at);
      CREATE TABLE api_keys (
        key_id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL REFERENCES users(id),
        last_used_at TEXT,
        revoked_at TEXT
      );
      CREATE INDEX api_keys_org_page ON api_keys (org_id, created_at, key_id);
      CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL
      );
      CREATE INDEX projects_org_page ON projects (org_id, created_at, id);
    `,
  },
  { version: 3, name: 'router', sql: ROUTER_SCHEMA_SQL },
];

/** Applies the migrations not yet recorded in schema_migrations, each in its own transaction. */
export async function migrate(connection: Connection): Promise<number[]> {
  await connection.sql.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (
       version INTEGER PRIMARY KEY,
       name TEXT NOT NULL,
       applied_at TEXT NOT NULL
     )`,
  );
  const applied: number[] = [];
  for (const migration of migrations) {
    const done = await connection.transaction(async (sql) => {
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
