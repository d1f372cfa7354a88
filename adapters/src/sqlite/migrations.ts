import type { Connection } from './connection.js';
import { INTAKE_SCHEMA_SQL } from './intake-schema.js';
import { ROUTER_SCHEMA_SQL } from './router-schema.js';
import { TRIBUNAL_SCHEMA_SQL } from './tribunal-schema.js';

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
  {
    version: 2,
    name: 'runs and receipts',
    sql: `
      CREATE TABLE flight_sheets (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        slug TEXT NOT NULL,
        version TEXT NOT NULL,
        -- MAJOR.MINOR.PATCH zero-padded, so the newest version is the greatest text
        version_key TEXT NOT NULL,
        lane TEXT NOT NULL,
        content TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        UNIQUE (org_id, slug, version)
      );
      CREATE INDEX flight_sheets_slug_version ON flight_sheets (org_id, slug, version_key);
      CREATE INDEX flight_sheets_org_page ON flight_sheets (org_id, created_at, id);
      CREATE INDEX flight_sheets_lane_page ON flight_sheets (org_id, lane, created_at, id);
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        project_id TEXT NOT NULL REFERENCES projects(id),
        flight_sheet_id TEXT NOT NULL,
        flight_sheet_slug TEXT NOT NULL,
        flight_sheet_version TEXT NOT NULL,
        flight_sheet_sha256 TEXT NOT NULL,
        title TEXT NOT NULL,
        agent_profile TEXT,
        state TEXT NOT NULL CHECK (state IN
          ('draft', 'audited', 'finalized', 'approved', 'rejected', 'escalated', 'receipted')),
        verdict TEXT,
        approval_decision TEXT CHECK (approval_decision IN ('approved', 'rejected', 'escalated')),
        approval_note TEXT,
        approval_decided_by TEXT,
        approval_decided_at TEXT,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX runs_org_page ON runs (org_id, created_at, id);
      CREATE INDEX runs_project_page ON runs (org_id, project_id, created_at, id);
      CREATE INDEX runs_state_page ON runs (org_id, state, created_at, id);
      CREATE INDEX runs_project_state_page ON runs (org_id, project_id, state, created_at, id);
      CREATE TABLE submissions (
        run_id TEXT PRIMARY KEY REFERENCES runs(id),
        org_id TEXT NOT NULL REFERENCES orgs(id),
        body_text TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        submitted_at TEXT NOT NULL
      );
      CREATE TABLE evidence (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        run_id TEXT NOT NULL REFERENCES runs(id),
        kind TEXT NOT NULL CHECK (kind IN ('note', 'text', 'url', 'log', 'json', 'file')),
        label TEXT NOT NULL,
        content TEXT,
        sha256 TEXT NOT NULL,
        size INTEGER NOT NULL,
        filename TEXT,
        content_type TEXT,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL
      );
      CREATE INDEX evidence_run ON evidence (org_id, run_id, created_at, id);
      CREATE INDEX evidence_file_blob ON evidence (sha256) WHERE kind = 'file';
      CREATE TABLE checks (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        run_id TEXT NOT NULL REFERENCES runs(id),
        position INTEGER NOT NULL,
        key TEXT NOT NULL,
        label TEXT NOT NULL,
        category TEXT NOT NULL,
        kind TEXT NOT NULL,
        severity TEXT NOT NULL,
        tier TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pass', 'flag', 'open', 'skip')),
        detail TEXT NOT NULL,
        UNIQUE (run_id, position)
      );
      CREATE INDEX checks_run ON checks (org_id, run_id, position);
      CREATE TABLE receipts (
        receipt_id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        org_seq INTEGER NOT NULL,
        run_id TEXT NOT NULL UNIQUE REFERENCES runs(id),
        parent_hash TEXT NOT NULL,
        receipt_sha256 TEXT NOT NULL,
        payload_text TEXT NOT NULL,
        share_token TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        UNIQUE (org_id, org_seq)
      );
    `,
  },
  { version: 3, name: 'router', sql: ROUTER_SCHEMA_SQL },
  { version: 4, name: 'tribunal', sql: TRIBUNAL_SCHEMA_SQL },
  { version: 5, name: 'incidents, payment events, dataset staging', sql: INTAKE_SCHEMA_SQL },
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
