import sqlite3 from 'sqlite3';
import { sqliteDialect } from '../sql/dialect.js';
import type { Sql, SqlParam } from '../sql/sql.js';

/** Distinct SQL texts are few (the repositories' statements); past this many the cache starts over. */
const CACHE_LIMIT = 512;

/** One node-sqlite3 handle, its statements prepared once and kept (a cached statement skips the parse). */
export interface Driver {
  readonly sql: Sql;
  close(): Promise<void>;
}

function openDatabase(file: string, mode: number): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const handle = new sqlite3.Database(file, mode, (err: Error | null) =>
      err ? reject(err) : resolve(handle),
    );
  });
}

/**
 * Opens `file` read-write (creating it) or read-only, in WAL mode with synchronous=FULL, and wraps it
 * as `Sql`. Statements are cached per connection: node-sqlite3 queues calls on one statement, and a
 * `get` resets its statement afterwards so no read stays open.
 */
export async function openDriver(file: string, readOnly: boolean): Promise<Driver> {
  const mode = readOnly ? sqlite3.OPEN_READONLY : sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE;
  const db = await openDatabase(file, mode);
  // Promises, so two callers asking for one new text at once share one prepare.
  const cache = new Map<string, Promise<sqlite3.Statement>>();

  const prepared = (text: string): Promise<sqlite3.Statement> => {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    // Past the limit the cache starts over; dropped statements are finalized when collected.
    if (cache.size >= CACHE_LIMIT) cache.clear();
    const statement = new Promise<sqlite3.Statement>((resolve, reject) => {
      const made = db.prepare(text, (err: Error | null) => (err ? reject(err) : resolve(made)));
    });
    cache.set(text, statement);
    statement.catch(() => cache.delete(text));
    return statement;
  };

  const sql: Sql = {
    dialect: sqliteDialect,
    run: async (text, params: SqlParam[] = []) => {
      const statement = await prepared(text);
      return new Promise((resolve, reject) => {
        statement.run(params, function (this: sqlite3.RunResult, err: Error | null) {
          if (err) reject(err);
          else resolve({ changes: this.changes });
        });
      });
    },
    get: async <T>(text: string, params: SqlParam[] = []) => {
      const statement = await prepared(text);
      return new Promise<T | undefined>((resolve, reject) => {
        statement.get(params, (err: Error | null, row: T | undefined) =>
          err ? reject(err) : resolve(row),
        );
        statement.reset();
      });
    },
    all: async <T>(text: string, params: SqlParam[] = []) => {
      const statement = await prepared(text);
      return new Promise<T[]>((resolve, reject) => {
        statement.all(params, (err: Error | null, rows: T[]) =>
          err ? reject(err) : resolve(rows),
        );
      });
    },
    exec: (text) =>
      new Promise((resolve, reject) => {
        db.exec(text, (err: Error | null) => (err ? reject(err) : resolve()));
      }),
  };

  const pragmas = ['PRAGMA busy_timeout = 5000', 'PRAGMA foreign_keys = ON'];
  if (!readOnly) pragmas.unshift('PRAGMA journal_mode = WAL', 'PRAGMA synchronous = FULL');
  await sql.exec(pragmas.join(';\n'));

  return {
    sql,
    close: async () => {
      const statements = await Promise.allSettled(cache.values());
      cache.clear();
      await Promise.all(
        statements.map((settled) =>
          settled.status === 'fulfilled'
            ? new Promise<void>((resolve) => settled.value.finalize(() => resolve()))
            : undefined,
        ),
      );
      await new Promise<void>((resolve, reject) => {
        db.close((err: Error | null) => (err ? reject(err) : resolve()));
      });
    },
  };
}
