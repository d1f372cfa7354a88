import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '@runledger/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseUpTo } from '../helpers/sqlite.js';

const T0 = '2029-06-01T00:00:00.000Z';

describe('migration 10 (share identity)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-m10-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps publishing e-mails for an organization that existed before it', async () => {
    // A database as the release before it left it: migrations up to 8, with an organization.
    const db = await databaseUpTo(dir, 8);
    await db.run("INSERT INTO orgs (id, name, created_at) VALUES ('org_old', 'Old', ?)", [T0]);
    await db.close();

    const storage = await openSqliteStorage({ file: join(dir, 'runledger.sqlite') });
    try {
      expect(await storage.read((tx) => tx.orgs.byId('org_old'))).toEqual({
        id: 'org_old',
        name: 'Old',
        created_at: T0,
        share_identity: 'email',
      });
    } finally {
      await storage.close();
    }
  });
});
