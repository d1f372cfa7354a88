import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Storage } from '@runledger/core/ports';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Connection } from './connection.js';
import { openSqliteStorage } from './storage.js';

const T0 = '2025-01-01T00:00:00.000Z';
const org = (id: string) => ({ id, name: id, created_at: T0 });

/** A promise and the function that resolves it: lets a test hold a transaction open without sleeping. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

describe('SQLite group commit', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-group-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('commits transactions that arrive together in one batch, and a throwing one rolls back alone', async () => {
    const connection = await Connection.open(join(dir, 'db.sqlite'));
    await connection.sql.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
    const insert = (k: string, fail: boolean) =>
      connection.transaction(async (sql) => {
        await sql.run('INSERT INTO t (k) VALUES (?)', [`${k}-1`]);
        await sql.run('INSERT INTO t (k) VALUES (?)', [`${k}-2`]);
        if (fail) throw new Error(`fail ${k}`);
        return k;
      });
    const settled = await Promise.allSettled([
      insert('a', false),
      insert('b', true),
      insert('c', false),
      insert('d', true),
      insert('e', false),
    ]);
    expect(settled.map((s) => s.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(connection.writer.stats).toEqual({ batches: 1, transactions: 5 });
    const rows = await connection.sql.all<{ k: string }>('SELECT k FROM t ORDER BY k');
    expect(rows.map((r) => r.k)).toEqual(['a-1', 'a-2', 'c-1', 'c-2', 'e-1', 'e-2']);
    await connection.close();
  });

  it('runs a batch in arrival order: a later transaction sees what an earlier one wrote', async () => {
    const connection = await Connection.open(join(dir, 'db.sqlite'));
    await connection.sql.exec('CREATE TABLE n (v INTEGER NOT NULL)');
    const next = () =>
      connection.transaction(async (sql) => {
        const row = await sql.get<{ v: number | null }>('SELECT MAX(v) AS v FROM n');
        const v = (row?.v ?? -1) + 1;
        await sql.run('INSERT INTO n (v) VALUES (?)', [v]);
        return v;
      });
    expect(await Promise.all(Array.from({ length: 20 }, next))).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
    await connection.close();
  });

  it('refuses a repository used after its transaction ended', async () => {
    const storage = await openSqliteStorage({ file: join(dir, 'db.sqlite') });
    const leaked = await storage.write(async (tx) => tx);
    await expect(leaked.orgs.insert(org('org_late'))).rejects.toThrow(/already finished/);
    await storage.close();
  });
});

describe('SQLite read pool', () => {
  let dir: string;
  let storage: Storage;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-reads-'));
    storage = await openSqliteStorage({ file: join(dir, 'db.sqlite') });
  });
  afterEach(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers reads while a write is still open, without seeing its uncommitted rows', async () => {
    await storage.write((tx) => tx.orgs.insert(org('org_before')));
    const held = gate();
    const inserted = gate();
    const writing = storage.write(async (tx) => {
      await tx.orgs.insert(org('org_during'));
      inserted.open();
      await held.wait;
    });
    await inserted.wait;
    // The write is open (its batch cannot commit until `held` opens): these reads must not wait for it.
    const seen = await Promise.all(
      Array.from({ length: 8 }, () =>
        storage.read(async (tx) => [
          await tx.orgs.byId('org_before'),
          await tx.orgs.byId('org_during'),
        ]),
      ),
    );
    for (const [before, during] of seen) {
      expect(before?.id).toBe('org_before');
      expect(during).toBeNull();
    }
    held.open();
    await writing;
    expect(await storage.read((tx) => tx.orgs.byId('org_during'))).not.toBeNull();
  });

  it('keeps one snapshot for the whole read while writes commit meanwhile', async () => {
    const first = gate();
    const committed = gate();
    const reading = storage.read(async (tx) => {
      const before = await tx.orgs.byId('org_x');
      first.open();
      await committed.wait;
      return [before, await tx.orgs.byId('org_x')];
    });
    await first.wait;
    await storage.write((tx) => tx.orgs.insert(org('org_x')));
    committed.open();
    expect(await reading).toEqual([null, null]);
    expect(await storage.read((tx) => tx.orgs.byId('org_x'))).toEqual({
      ...org('org_x'),
      share_identity: 'email',
    });
  });

  it('refuses a write inside a read', async () => {
    await expect(storage.read((tx) => tx.orgs.insert(org('org_r')))).rejects.toThrow(
      /readonly|read-only/i,
    );
    expect(await storage.read((tx) => tx.orgs.byId('org_r'))).toBeNull();
  });
});
