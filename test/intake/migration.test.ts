import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '@runledger/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseUpTo, openRawDb } from '../helpers/sqlite.js';

const T0 = '2029-06-01T00:00:00.000Z';

describe('migration 5 (incidents, payment events, dataset staging)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-m5-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('turns old staging datasets into pending and keeps every dataset and grant', async () => {
    // A database as the router release left it: migrations up to 3, with data.
    const db = await databaseUpTo(dir, 3);
    await db.run(
      `INSERT INTO router_members (member_id, email, name, created_at, activated_at, expires_at)
       VALUES ('mbr_1', 'a@example.com', 'A', ?, ?, '2030-06-01T00:00:00.000Z')`,
      [T0, T0],
    );
    await db.run(
      `INSERT INTO datasets (dataset_id, name, description, status, created_at) VALUES
       ('dst_ready', 'r', NULL, 'ready', ?), ('dst_staging', 's', 'raw', 'staging', ?)`,
      [T0, T0],
    );
    await db.run("INSERT INTO dataset_access VALUES ('dst_ready', 'mbr_1', 'rr_1', ?)", [T0]);
    await db.close();

    const storage = await openSqliteStorage({ file: join(dir, 'runledger.sqlite') });
    try {
      const [ready, staging, grant] = await storage.write(async (tx) => [
        await tx.datasets.byId('dst_ready'),
        await tx.datasets.byId('dst_staging'),
        await tx.datasets.accessOf('dst_ready', 'mbr_1'),
      ]);
      expect(ready).toMatchObject({ status: 'ready', error: null, updated_at: T0 });
      expect(staging).toMatchObject({ status: 'pending', description: 'raw', updated_at: T0 });
      expect(grant).toMatchObject({ receipt_id: 'rr_1' });
    } finally {
      await storage.close();
    }

    const after = await openRawDb(dir);
    try {
      // The grant table still points at datasets, and foreign keys still hold.
      const sql = await after.all<{ sql: string }>(
        "SELECT sql FROM sqlite_master WHERE name = 'dataset_access'",
      );
      expect(sql[0]?.sql).toMatch(/REFERENCES "?datasets"?\(dataset_id\)/);
      expect(await after.all('PRAGMA foreign_key_check')).toEqual([]);
      const versions = await after.all<{ version: number }>(
        'SELECT version FROM schema_migrations ORDER BY version',
      );
      expect(versions.map((v) => v.version)).toContain(5);
    } finally {
      await after.close();
    }
  });
});
