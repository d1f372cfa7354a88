import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { StorageFaultError } from '@runledger/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Connection } from './connection.js';
import type { WalSync } from './durable-commits.js';
import { ReadPool } from './read-pool.js';

/** A log sync the test lets finish (or fail) when it chooses; `waiting` holds one per sync asked for. */
function heldSync() {
  const waiting: { done: () => void; fail: (error: Error) => void }[] = [];
  const sync: WalSync = (wal) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ done: () => void wal.datasync().then(resolve, reject), fail: reject });
    });
  return { sync, waiting };
}

/** Resolves once `check` holds, looking again on each turn of the event loop. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

describe('SQLite commits: durable before anyone sees them, checkpoints off the writer', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-durable-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function open(sync?: WalSync, readers = 2) {
    const file = join(dir, 'db.sqlite');
    const connection = await Connection.open(file, undefined, undefined, sync);
    await connection.sql.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
    const pool = await ReadPool.open(file, readers, connection.commits, () =>
      connection.dataVersion(),
    );
    const count = () =>
      pool.read(async (sql) => (await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM t'))!.n);
    const insert = (k: string) =>
      connection.transaction((sql) => sql.run('INSERT INTO t (k) VALUES (?)', [k]));
    return { file, connection, pool, count, insert };
  }

  it('answers a write only once the log is synced; a read meanwhile sees the state before it', async () => {
    const held = heldSync();
    const db = await open(held.sync);
    let written = false;
    const write = db.insert('a').then(() => (written = true));
    await until(() => held.waiting.length === 1);
    // Committed but not synced: the read answers from the snapshot taken just before the COMMIT.
    expect(await db.count()).toBe(0);
    expect(written).toBe(false);
    held.waiting[0]!.done();
    await write;
    expect(await db.count()).toBe(1);
    await db.connection.close();
    await db.pool.close();
  });

  it('tells the batch observer how long each log sync took, within the commit that waited for it', async () => {
    const held = heldSync();
    const observed: { transactions: number; seconds: number; syncSeconds: number }[] = [];
    const connection = await Connection.open(
      join(dir, 'db.sqlite'),
      (transactions, seconds, syncSeconds) => observed.push({ transactions, seconds, syncSeconds }),
      undefined,
      held.sync,
    );
    await connection.sql.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
    const outerStart = process.hrtime.bigint();
    const write = connection.transaction((sql) => sql.run('INSERT INTO t (k) VALUES (?)', ['a']));
    await until(() => held.waiting.length === 1);
    // The sync stays held for a few turns of the event loop: the observed sync cannot be shorter.
    const heldFrom = process.hrtime.bigint();
    for (let turn = 0; turn < 5; turn += 1) await new Promise((r) => setImmediate(r));
    const heldFor = Number(process.hrtime.bigint() - heldFrom) / 1e9;
    held.waiting[0]!.done();
    await write;
    const outer = Number(process.hrtime.bigint() - outerStart) / 1e9;
    expect(observed).toHaveLength(1);
    const [batch] = observed;
    expect(batch!.transactions).toBe(1);
    expect(batch!.syncSeconds).toBeGreaterThanOrEqual(heldFor);
    expect(batch!.syncSeconds).toBeLessThanOrEqual(batch!.seconds);
    expect(batch!.seconds).toBeLessThanOrEqual(outer);
    await connection.close();
  });

  it("makes a read wait for the sync once another connection committed after the writer's COMMIT", async () => {
    const held = heldSync();
    const db = await open(held.sync);
    const write = db.insert('a');
    await until(() => held.waiting.length === 1);
    // A second server on the same file commits (and answers its caller) while 'a' syncs.
    const other = new Database(db.file);
    other.prepare('INSERT INTO t (k) VALUES (?)').run('z');
    other.close();
    let read: number | undefined;
    const reading = db.count().then((n) => (read = n));
    await new Promise((resolve) => setImmediate(resolve));
    // The snapshot pinned before 'a' would miss 'z'; a fresh one would see 'a' before it is durable.
    expect(read).toBeUndefined();
    held.waiting[0]!.done();
    await Promise.all([write, reading]);
    expect(read).toBe(2);
    await db.connection.close();
    await db.pool.close();
  });

  it('makes a read on a connection that was busy at the COMMIT wait for the sync', async () => {
    const held = heldSync();
    const db = await open(held.sync, 1);
    let letGo = () => undefined as void;
    const busy = db.pool.read(() => new Promise<void>((resolve) => (letGo = resolve)));
    const write = db.insert('a');
    await until(() => held.waiting.length === 1);
    let read: number | undefined;
    const reading = db.count().then((n) => (read = n));
    letGo();
    await busy;
    await new Promise((resolve) => setImmediate(resolve));
    expect(read).toBeUndefined();
    held.waiting[0]!.done();
    await Promise.all([write, reading]);
    expect(read).toBe(1);
    await db.connection.close();
    await db.pool.close();
  });

  it('serves every read during one sync from the one snapshot pinned before its COMMIT', async () => {
    const held = heldSync();
    const db = await open(held.sync, 3);
    const first = db.insert('a');
    await until(() => held.waiting.length === 1);
    held.waiting[0]!.done();
    await first;
    const write = db.insert('b');
    await until(() => held.waiting.length === 2);
    // One after another, each on the snapshot kept from the read before: none waits for the sync.
    expect([await db.count(), await db.count(), await db.count()]).toEqual([1, 1, 1]);
    // While a read holds that snapshot, another waits for the sync and sees the commit.
    let letGo = () => undefined as void;
    const holding = db.pool.read(async (sql) => {
      const n = (await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM t'))!.n;
      await new Promise<void>((resolve) => (letGo = resolve));
      return n;
    });
    let second: number | undefined;
    const reading = db.count().then((n) => (second = n));
    await new Promise((resolve) => setImmediate(resolve));
    expect(second).toBeUndefined();
    held.waiting[1]!.done();
    await Promise.all([write, reading]);
    expect(second).toBe(2);
    // The held read's snapshot outlived its commit's sync: it ends, and the next read sees the commit.
    letGo();
    expect(await holding).toBe(1);
    expect(await db.count()).toBe(2);
    await db.connection.close();
    await db.pool.close();
  });

  it('fails the batch whose sync fails, and every later write before it writes anything', async () => {
    const held = heldSync();
    const db = await open(held.sync);
    const first = db.insert('a');
    await until(() => held.waiting.length === 1);
    held.waiting[0]!.fail(Object.assign(new Error('EIO'), { code: 'EIO' }));
    await expect(first).rejects.toMatchObject({ kind: 'outcome_unknown' });
    const later = await db.insert('b').catch((error: unknown) => error);
    expect(later).toBeInstanceOf(StorageFaultError);
    expect(later).toMatchObject({ kind: 'database_unreachable' });
    expect(held.waiting).toHaveLength(1);
    // 'a' was committed (its durability unknown); 'b' never reached the database.
    const rows = await db.connection.sql.all<{ k: string }>('SELECT k FROM t ORDER BY k');
    expect(rows.map((r) => r.k)).toEqual(['a']);
    await db.connection.close();
    await db.pool.close();
  });

  it('checkpoints on its worker thread: the database file alone holds what was written', async () => {
    const db = await open();
    // One batch: its commit asks for the first checkpoint, which copies everything logged so far.
    await db.connection.transaction(async (sql) => {
      for (let i = 0; i < 51; i += 1) await sql.run('INSERT INTO t (k) VALUES (?)', [`k${i}`]);
    });
    await until(() => db.connection.checkpointer.stats.done >= 1);
    const copy = join(dir, 'copy.sqlite');
    await copyFile(db.file, copy);
    const alone = new Database(copy, { readonly: true });
    expect(alone.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 51 });
    alone.close();
    expect(db.connection.checkpointer.stats.failed).toBe(0);
    await db.connection.close();
    await db.pool.close();
  });
});
