import { join } from 'node:path';
import { migrations } from '@runledger/adapters';
import sqlite3 from 'sqlite3';

/**
 * A second, independent connection to a test server's SQLite file: what an attacker with disk access
 * (or a bug elsewhere) would use. Tests read and tamper with stored rows through it.
 */
export interface RawDb {
  all<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  run(sql: string, params?: unknown[]): Promise<number>;
  /** Several statements, no parameters. */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

export async function openRawDb(dataDir: string): Promise<RawDb> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(join(dataDir, 'runledger.sqlite'), (error) =>
      error ? reject(error) : resolve(opened),
    );
  });
  db.configure('busyTimeout', 5000);
  return {
    all: (sql, params = []) =>
      new Promise((resolve, reject) =>
        db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows as never))),
      ),
    run: (sql, params = []) =>
      new Promise((resolve, reject) =>
        db.run(sql, params, function (this: sqlite3.RunResult, error: Error | null) {
          if (error) reject(error);
          else resolve(this.changes);
        }),
      ),
    exec: (sql) =>
      new Promise((resolve, reject) => db.exec(sql, (e) => (e ? reject(e) : resolve()))),
    close: () => new Promise((resolve, reject) => db.close((e) => (e ? reject(e) : resolve()))),
  };
}

/**
 * A raw connection to a new database in `dataDir` as an older release left it: the migrations up to
 * `version` applied and recorded, the later ones not (the storage applies them when it opens).
 */
export async function databaseUpTo(dataDir: string, version: number): Promise<RawDb> {
  const db = await openRawDb(dataDir);
  await db.run(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const m of migrations.filter((m) => m.version <= version)) {
    await db.exec(m.sql);
    await db.run('INSERT INTO schema_migrations VALUES (?, ?, ?)', [
      m.version,
      m.name,
      '2029-06-01T00:00:00.000Z',
    ]);
  }
  return db;
}
