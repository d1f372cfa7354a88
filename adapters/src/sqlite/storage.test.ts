import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Connection } from './connection.js';
import { migrate, migrations } from './migrations.js';
import { openSqliteStorage } from './storage.js';

describe('SQLite storage', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-sqlite-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('applies each migration once, however often the file is opened', async () => {
    const file = join(dir, 'db.sqlite');
    const first = await Connection.open(file);
    expect(await migrate(first)).toEqual(migrations.map((m) => m.version));
    expect(await migrate(first)).toEqual([]);
    await first.close();
    const storage = await openSqliteStorage({ file });
    await storage.close();
    const again = await Connection.open(file);
    const rows = await again.sql.all<{ version: number }>('SELECT version FROM schema_migrations');
    expect(rows.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
    await again.close();
  });

  it('runs in WAL mode with foreign keys, its commits synced off the event loop and no checkpoint on the writer', async () => {
    const connection = await Connection.open(join(dir, 'db.sqlite'));
    const get = async (pragma: string) =>
      Object.values((await connection.sql.get<Record<string, unknown>>(`PRAGMA ${pragma}`)) ?? {});
    expect(await get('journal_mode')).toEqual(['wal']);
    expect(await get('foreign_keys')).toEqual([1]);
    expect(await get('synchronous')).toEqual([1]);
    expect(await get('wal_autocheckpoint')).toEqual([0]);
    await connection.close();
  });

  it('pages and looks up through indexes, never by scanning a table', async () => {
    const connection = await Connection.open(join(dir, 'db.sqlite'));
    await migrate(connection);
    const plan = async (sql: string) =>
      (await connection.sql.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`))
        .map((r) => r.detail)
        .join('; ');
    const paged = [
      "SELECT * FROM projects WHERE org_id = 'o' AND (created_at, id) > ('t', 'i') ORDER BY created_at, id LIMIT 51",
      "SELECT * FROM api_keys WHERE org_id = 'o' AND (created_at, key_id) > ('t', 'i') ORDER BY created_at, key_id LIMIT 51",
      "SELECT * FROM links WHERE org_id = 'o' AND purpose = 'invite' AND (created_at, id) > ('t', 'i') ORDER BY created_at, id LIMIT 51",
      "SELECT m.user_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = 'o' AND (m.created_at, m.user_id) > ('t', 'i') ORDER BY m.created_at, m.user_id LIMIT 51",
    ];
    for (const sql of paged) {
      const detail = await plan(sql);
      expect(detail).toMatch(/USING (COVERING )?INDEX/);
      expect(detail).not.toMatch(/TEMP B-TREE/);
    }
    const lookups = [
      "SELECT * FROM users WHERE email = 'e'",
      "SELECT * FROM links WHERE token_hash = 'h'",
      "SELECT * FROM links WHERE email = 'e' AND purpose = 'invite' AND used_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 1",
      "SELECT COUNT(*) FROM memberships WHERE org_id = 'o' AND role = 'owner'",
    ];
    for (const sql of lookups) expect(await plan(sql)).toMatch(/USING (COVERING )?INDEX/);
    await connection.close();
  });
});
