import { join } from 'node:path';
import { migrations } from '@runledger/adapters';
import Database from 'better-sqlite3';

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
  const db = new Database(join(dataDir, 'runledger.sqlite'), { timeout: 5000 });
  const settle = <T>(f: () => T): Promise<T> => {
    try {
      return Promise.resolve(f());
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };
  return {
    all: (sql, params = []) => settle(() => db.prepare(sql).all(...params) as never),
    run: (sql, params = []) => settle(() => db.prepare(sql).run(...params).changes),
    exec: (sql) => settle(() => void db.exec(sql)),
    close: () => settle(() => void db.close()),
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
