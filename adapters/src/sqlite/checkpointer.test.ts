import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CHECKPOINT_INTERVAL_MS,
  Checkpointer,
  MAX_PRECOPIES,
  PAUSE_FRAMES,
  RESTART_FRAMES,
} from './checkpointer.js';
import { Connection } from './connection.js';

/**
 * A clock an hour ahead that moves a second per reading: no request is then held back by the
 * interval since the last checkpoint or by a dead worker's delay.
 */
let ahead = Date.now() + 60 * 60 * 1000;
const later = () => (ahead += 1000);
const settle = { timeout: 20_000, interval: 5 };

describe('the checkpoint worker', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-checkpointer-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A WAL database whose rows are still only in its log (the connection stays open, uncheckpointed). */
  function writer(file: string, rows: number) {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, pad TEXT)');
    const insert = db.prepare('INSERT INTO t (k) VALUES (?)');
    db.transaction(() => {
      for (let k = 0; k < rows; k += 1) insert.run(k);
    })();
    return db;
  }

  /** The rows a copy of the database file alone holds, without its log. */
  async function rowsInFileAlone(file: string): Promise<number> {
    const copy = join(dir, 'copy.sqlite');
    await copyFile(file, copy);
    const alone = new Database(copy, { readonly: true });
    const { n } = alone.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number };
    alone.close();
    return n;
  }

  it('replaces a worker that died (no database to open yet) and then checkpoints', async () => {
    const file = join(dir, 'db.sqlite');
    const checkpointer = Checkpointer.start(file);
    await vi.waitFor(() => expect(checkpointer.stats.deaths).toBe(1), settle);
    // The database appears; its delay not yet past, the dead worker is not replaced.
    const db = writer(file, 40);
    checkpointer.request();
    expect(checkpointer.stats).toEqual({ done: 0, precopies: 0, pauses: 0, failed: 0, deaths: 1 });
    checkpointer.request(later());
    await vi.waitFor(() => expect(checkpointer.stats.done).toBe(1), settle);
    expect(await rowsInFileAlone(file)).toBe(40);
    await checkpointer.close();
    db.close();
    expect(checkpointer.stats).toEqual({ done: 1, precopies: 0, pauses: 0, failed: 0, deaths: 1 });
  });

  it('counts a worker that dies during a checkpoint (not a database) as a failure and a death', async () => {
    const file = join(dir, 'db.sqlite');
    await writeFile(file, 'this is not a database, whatever its name says');
    const checkpointer = Checkpointer.start(file);
    checkpointer.request(later());
    await vi.waitFor(() => expect(checkpointer.stats.deaths).toBe(1), settle);
    // Replaced at the next request past its delay, it dies again: checkpointing goes on trying.
    checkpointer.request(later());
    await vi.waitFor(() => expect(checkpointer.stats.deaths).toBe(2), settle);
    // Each died with its checkpoint running: both count as failed.
    expect(checkpointer.stats).toMatchObject({ done: 0, failed: 2 });
    await checkpointer.close();
  });

  it('restarts the log under writes that never stop: a pause lets a checkpoint catch up', async () => {
    const file = join(dir, 'db.sqlite');
    const connection = await Connection.open(file);
    await connection.sql.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, pad TEXT)');
    // Batch after batch with no gap, each of about ten pages, until three pauses have settled.
    let k = 0;
    while (connection.checkpointer.stats.pauses < 3 && k < 2_000_000) {
      await connection.transaction(async (sql) => {
        for (let i = 0; i < 10; i += 1, k += 1) {
          await sql.run('INSERT INTO t (k, pad) VALUES (?, ?)', [k, 'x'.repeat(3000)]);
        }
      });
    }
    await connection.transaction((sql) => sql.run('INSERT INTO t (k) VALUES (?)', [k]));
    // The log's header counts its restarts (the checkpoint sequence number, bytes 12-15): the log
    // went back to its beginning after the pauses instead of growing with every batch.
    const header = Buffer.alloc(32);
    const wal = await open(`${file}-wal`, 'r');
    await wal.read(header, 0, 32, 0);
    await wal.close();
    expect(header.readUInt32BE(12)).toBeGreaterThanOrEqual(2);
    expect(connection.checkpointer.stats.failed).toBe(0);
    await connection.close();
  });

  it('runs pre-copies before a pause until one finds few frames added, at most MAX_PRECOPIES', async () => {
    const file = join(dir, 'db.sqlite');
    const db = writer(file, 0);
    const insert = db.prepare('INSERT INTO t (k, pad) VALUES (?, ?)');
    // A read that takes a new snapshot after each write, as the server's reads do: checkpoints copy
    // every frame, but the log cannot restart under it and grows as under writes that never stop.
    const reader = new Database(file, { readonly: true });
    let k = 0;
    /** About `frames` log frames (one row of 3,000 bytes fills most of a 4 KiB page). */
    const write = (frames: number) => {
      db.transaction(() => {
        for (let i = 0; i < frames; i += 1, k += 1) insert.run(k, 'x'.repeat(3000));
      })();
      if (reader.inTransaction) reader.prepare('COMMIT').run();
      reader.prepare('BEGIN').run();
      reader.prepare('SELECT COUNT(*) FROM t').get();
    };
    const checkpointer = Checkpointer.start(file);
    /** One request, answered as a pre-copy (null) or a pause (its settling), once it has run. */
    const step = async (t: number) => {
      const done = checkpointer.stats.done;
      const pause = checkpointer.request(t);
      await (pause ?? vi.waitFor(() => expect(checkpointer.stats.done).toBe(done + 1), settle));
      return pause === null ? 'checkpoint' : 'pause';
    };
    try {
      const t = later();
      write(RESTART_FRAMES + 200);
      expect(await step(t)).toBe('checkpoint');
      // The log is long: a pre-copy at once. Many frames added since the checkpoint before it
      // started: another at once, no pause yet.
      write(PAUSE_FRAMES * 2);
      expect(await step(t + 1)).toBe('checkpoint');
      // Few frames added since the last pre-copy started: the pause comes next.
      write(10);
      expect(await step(t + 2)).toBe('checkpoint');
      expect(await step(t + 3)).toBe('pause');
      expect(checkpointer.stats).toMatchObject({ done: 4, precopies: 2, pauses: 1, failed: 0 });
      // However fast the log grows, a pause comes after MAX_PRECOPIES pre-copies.
      write(RESTART_FRAMES + 200);
      let now = t + 3 + CHECKPOINT_INTERVAL_MS;
      expect(await step(now)).toBe('checkpoint');
      for (let i = 0; i < MAX_PRECOPIES; i += 1) {
        write(PAUSE_FRAMES * 2);
        expect(await step((now += 1))).toBe('checkpoint');
      }
      write(PAUSE_FRAMES * 2);
      expect(await step((now += 1))).toBe('pause');
      expect(checkpointer.stats).toMatchObject({ precopies: 2 + MAX_PRECOPIES, pauses: 2 });
    } finally {
      if (reader.inTransaction) reader.prepare('COMMIT').run();
      reader.close();
      await checkpointer.close();
      db.close();
    }
  });

  it('pauses the writer again only after the interval while a long read holds an older snapshot', async () => {
    const file = join(dir, 'db.sqlite');
    const db = writer(file, 0);
    // A read that began before the frames below: no checkpoint can copy past its snapshot.
    const reader = new Database(file, { readonly: true });
    reader.prepare('BEGIN').run();
    reader.prepare('SELECT COUNT(*) FROM t').get();
    const insert = db.prepare('INSERT INTO t (k, pad) VALUES (?, ?)');
    db.transaction(() => {
      for (let k = 0; k < 1200; k += 1) insert.run(k, 'x'.repeat(3000));
    })();
    const checkpointer = Checkpointer.start(file);
    try {
      const t = later();
      expect(checkpointer.request(t)).toBeNull();
      await vi.waitFor(() => expect(checkpointer.stats.done).toBe(1), settle);
      // It found the log long and could not copy it all: a pre-copy at once, which finds no frame
      // added, then a pause at once.
      expect(checkpointer.request(t + 1)).toBeNull();
      await vi.waitFor(() => expect(checkpointer.stats.done).toBe(2), settle);
      const pause = checkpointer.request(t + 2);
      expect(pause).not.toBeNull();
      await pause;
      expect(checkpointer.stats).toMatchObject({ done: 3, precopies: 1, pauses: 1 });
      // The read still holds its snapshot: no other pause before the interval, one after it.
      expect(checkpointer.request(t + 3)).toBeNull();
      const again = checkpointer.request(t + 2 + CHECKPOINT_INTERVAL_MS);
      expect(again).not.toBeNull();
      await again;
      expect(checkpointer.stats).toMatchObject({ done: 4, precopies: 1, pauses: 2, failed: 0 });
    } finally {
      reader.prepare('COMMIT').run();
      reader.close();
      await checkpointer.close();
      db.close();
    }
  });

  // A full disk needs a tmpfs, so root (`.ci/run` runs as root; elsewhere this one is skipped).
  it.runIf(process.getuid?.() === 0 || process.env['CI'])(
    'keeps the same worker through a checkpoint a full disk refuses, and checkpoints once there is room',
    async () => {
      const run = promisify(execFile);
      await run('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir]);
      const file = join(dir, 'db.sqlite');
      const db = writer(file, 0);
      const checkpointer = Checkpointer.start(file);
      try {
        checkpointer.request(later());
        await vi.waitFor(() => expect(checkpointer.stats.done).toBe(1), settle);
        // Rows that only the log holds, then a disk with no room for the database file to grow.
        const insert = db.prepare('INSERT INTO t (k, pad) VALUES (?, ?)');
        db.transaction(() => {
          for (let k = 0; k < 150; k += 1) insert.run(k, 'x'.repeat(2000));
        })();
        const filler = join(dir, 'filler');
        await writeFile(filler, Buffer.alloc(4 * 1024 * 1024)).catch(() => undefined);
        checkpointer.request(later());
        await vi.waitFor(() => expect(checkpointer.stats.failed).toBe(1), settle);
        expect(checkpointer.stats.deaths).toBe(0);
        await rm(filler);
        checkpointer.request(later());
        await vi.waitFor(() => expect(checkpointer.stats.done).toBe(2), settle);
        expect(await rowsInFileAlone(file)).toBe(150);
      } finally {
        await checkpointer.close();
        db.close();
        await run('umount', [dir]);
      }
    },
  );
});
