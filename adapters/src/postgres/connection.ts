import pg from 'pg';
import type { Sql, SqlParam } from '../sqlite/connection.js';
import { numberPlaceholders } from './placeholders.js';

/** Serialization failure and deadlock: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01']);
const ATTEMPTS = 5;

// COUNT(*), MAX() and BIGINT columns arrive as int8; every such value here is a count, size or
// sequence number well inside the safe integer range, so they are numbers, as in SQLite.
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

function wrap(client: pg.PoolClient): Sql {
  const query = (sql: string, params: SqlParam[]) =>
    client.query<Record<string, unknown>>(numberPlaceholders(sql), params);
  return {
    run: async (sql, params = []) => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
    get: async <T>(sql: string, params: SqlParam[] = []) =>
      (await query(sql, params)).rows[0] as T | undefined,
    all: async <T>(sql: string, params: SqlParam[] = []) => (await query(sql, params)).rows as T[],
    // The simple query protocol: several statements, no parameters (migrations only).
    exec: async (sql) => {
      await client.query(sql);
    },
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

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

export interface PoolOptions {
  connectionString: string;
  /** Every pooled connection uses this schema as its search_path. */
  schema?: string;
}

/**
 * A pg pool. Each transaction takes one pooled client for its whole life and runs at READ COMMITTED;
 * where the SQLite adapter relied on transactions running one at a time, the repositories take
 * named locks (`WriteTransaction.lock`, taken by core; see docs/storage.md), and constraints stay the backstop.
 */
export class Connection {
  private closed = false;

  private constructor(private readonly pool: pg.Pool) {}

  static async open(options: PoolOptions): Promise<Connection> {
    if (options.schema !== undefined) checkSchemaName(options.schema);
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      types,
      ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
    });
    // An idle client's connection error must not crash the process; the next query reports it.
    pool.on('error', () => undefined);
    const connection = new Connection(pool);
    try {
      const client = await pool.connect();
      client.release();
    } catch (error) {
      await pool.end();
      throw error;
    }
    return connection;
  }

  /**
   * Runs `fn` inside BEGIN … COMMIT on one pooled client; any throw rolls back and is rethrown.
   * A serialization failure or deadlock reruns `fn` from the start, a few times at most.
   */
  async transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.once(fn);
      } catch (error) {
        if (attempt >= ATTEMPTS || !isRetryable(error)) throw error;
      }
    }
  }

  private async once<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('storage is closed');
    const client = await this.pool.connect();
    const raw = wrap(client);
    const handle = scoped(raw);
    let broken = false;
    try {
      await raw.exec('BEGIN ISOLATION LEVEL READ COMMITTED');
      const result = await fn(handle.sql);
      handle.end();
      await raw.exec('COMMIT');
      return result;
    } catch (error) {
      handle.end();
      await raw.exec('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      // A client whose ROLLBACK failed is in an unknown state: destroy it rather than reuse it.
      client.release(broken);
    }
  }

  /** Waits for checked-out clients to be released, then closes the pool. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}

/**
 * The schema travels in the startup `options` (it cannot be a bound parameter), so only plain
 * identifiers are accepted: nothing to quote, nothing to inject.
 */
export function checkSchemaName(name: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new Error(`invalid schema name ${JSON.stringify(name)}: use [a-z_][a-z0-9_]*`);
  }
}
