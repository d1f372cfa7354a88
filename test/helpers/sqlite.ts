import { join } from 'node:path';
import sqlite3 from 'sqlite3';

/**
 * A second, independent connection to a test server's SQLite file: what an attacker with disk access
 * (or a bug elsewhere) would use. Tests read and tamper with stored rows through it.
 */
export interface RawDb {
  all<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  run(sql: string, params?: unknown[]): Promise<number>;
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
    close: () => new Promise((resolve, reject) => db.close((e) => (e ? reject(e) : resolve()))),
  };
}
