import sqlite3 from 'sqlite3';

export type SqlParam = string | number | null;

/** The few statements the repositories need, as promises. Every query is parameterized. */
export interface Sql {
  run(sql: string, params?: SqlParam[]): Promise<{ changes: number }>;
  get<T>(sql: string, params?: SqlParam[]): Promise<T | undefined>;
  all<T>(sql: string, params?: SqlParam[]): Promise<T[]>;
  exec(sql: string): Promise<void>;
}

function wrap(db: sqlite3.Database): Sql {
  return {
    run: (sql, params = []) =>
      new Promise((resolve, reject) => {
        db.run(sql, params, function (this: sqlite3.RunResult, err: Error | null) {
          if (err) reject(err);
          else resolve({ changes: this.changes });
        });
      }),
    get: <T>(sql: string, params: SqlParam[] = []) =>
      new Promise<T | undefined>((resolve, reject) => {
        db.get(sql, params, (err: Error | null, row: T | undefined) =>
          err ? reject(err) : resolve(row),
        );
      }),
    all: <T>(sql: string, params: SqlParam[] = []) =>
      new Promise<T[]>((resolve, reject) => {
        db.all(sql, params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows)));
      }),
    exec: (sql) =>
      new Promise((resolve, reject) => {
        db.exec(sql, (err: Error | null) => (err ? reject(err) : resolve()));
      }),
  };
}

/** A handle valid only while its transaction runs, so a repository leaked out of `fn` cannot write later. */
function scoped(sql: Sql): { sql: Sql; end: () => void } {
  let live = true;
  const guard =
    <A extends unknown[], R>(f: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      live ? f(...args) : Promise.reject(new Error('transaction already finished'));
  return {
    sql: {
      run: guard(sql.run),
      get: guard(sql.get) as Sql['get'],
      all: guard(sql.all) as Sql['all'],
      exec: guard(sql.exec),
    },
    end: () => {
      live = false;
    },
  };
}

/**
 * One node-sqlite3 connection. Since a connection has one transaction at a time, transactions are
 * queued and run one after another, never interleaved.
 */
export class Connection {
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly db: sqlite3.Database,
    readonly sql: Sql,
  ) {}

  static async open(file: string): Promise<Connection> {
    const db = await new Promise<sqlite3.Database>((resolve, reject) => {
      const handle = new sqlite3.Database(file, (err: Error | null) =>
        err ? reject(err) : resolve(handle),
      );
    });
    const connection = new Connection(db, wrap(db));
    await connection.sql.exec(
      [
        'PRAGMA journal_mode = WAL',
        'PRAGMA synchronous = FULL',
        'PRAGMA foreign_keys = ON',
        'PRAGMA busy_timeout = 5000',
      ].join(';\n'),
    );
    return connection;
  }

  /** Runs `fn` inside BEGIN IMMEDIATE … COMMIT; any throw rolls back and is rethrown. */
  transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('storage is closed'));
    const run = this.tail.then(async () => {
      const handle = scoped(this.sql);
      await this.sql.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(handle.sql);
        handle.end();
        await this.sql.exec('COMMIT');
        return result;
      } catch (error) {
        handle.end();
        await this.sql.exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Waits for queued transactions, then closes the connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.tail;
    await new Promise<void>((resolve, reject) => {
      this.db.close((err: Error | null) => (err ? reject(err) : resolve()));
    });
  }
}
