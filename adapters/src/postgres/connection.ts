import pg from 'pg';
import { StorageFaultError } from '@runledger/core';
import { isNoSpace } from '../faults/disk-full.js';
import { postgresCallerClockDialect, postgresDialect, type Dialect } from '../sql/dialect.js';
import { scoped, type ScopedSql, type Sql, type SqlParam } from '../sql/sql.js';
import { endingWrites, type EndWith } from '../sql/write-transaction.js';
import { beginGate, type Gate } from './begin-gate.js';
import { isConnectionLoss } from './connection-loss.js';
import { StatementNames } from './statement-names.js';

/** Serialization failure and deadlock: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01']);
const ATTEMPTS = 5;
/** A connection not made within this long fails the transaction (503) instead of holding it. */
const CONNECT_TIMEOUT_MS = 5000;

// COUNT(*), MAX() and BIGINT columns arrive as int8; every such value here is a count, size or
// sequence number well inside the safe integer range, so they are numbers, as in SQLite.
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * The client runs in pg's pipeline mode: a statement is written to the socket as soon as it is
 * sent, each with its own Sync, and PostgreSQL runs them one after another in the order written.
 * Statements a transaction sends together (Promise.all, or a lock not awaited before the read it
 * guards) cost one round trip instead of one each, and each still runs after the one before it
 * has finished (a read sent after a lock takes its snapshot once the lock is held). A failed
 * statement aborts the transaction, so the statements behind it fail too, as they would one by one.
 * Every statement passes the transaction's `gate`, which holds what must wait for BEGIN, and goes by
 * its name once `names` has given it one (prepared once per connection).
 */
function wrap(client: pg.PoolClient, dialect: Dialect, names: StatementNames, gate: Gate): Sql {
  const query = (sql: string, params: SqlParam[]) => {
    const { text, name } = names.use(sql);
    return gate(text, () => client.query<Record<string, unknown>>({ text, name, values: params }));
  };
  return {
    dialect,
    run: async (sql, params = []) => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
    get: async <T>(sql: string, params: SqlParam[] = []) =>
      (await query(sql, params)).rows[0] as T | undefined,
    all: async <T>(sql: string, params: SqlParam[] = []) => (await query(sql, params)).rows as T[],
    // The simple query protocol: several statements, no parameters (migrations only).
    exec: async (sql) => {
      await gate(sql, () => client.query(sql));
    },
  };
}

/**
 * Read transactions that have answered but whose COMMIT has not been sent yet. A read-only
 * transaction's COMMIT changes nothing and cannot fail, so it need not hold up the answer or cost a
 * round trip of its own: the client's next transaction sends it in front of its BEGIN, in the same
 * message, and a client that nobody takes within one turn of the event loop sends it alone.
 */
const commitOwed = new WeakSet<pg.PoolClient>();

function settleOwedCommit(client: pg.PoolClient): void {
  if (commitOwed.delete(client)) client.query('COMMIT').catch(() => undefined);
}

/**
 * A transaction that failed for good, as the caller sees it: a lost connection or a full disk is a
 * storage fault (503, try again), anything else is itself.
 */
function asStorageFault(error: unknown): unknown {
  if (error instanceof StorageFaultError) return error;
  if (isConnectionLoss(error)) return new StorageFaultError('database_unreachable', error);
  if (isNoSpace(error)) return new StorageFaultError('disk_full', error);
  return error;
}

/**
 * The connection was lost after COMMIT was written: whether it committed is unknown. pg refuses a
 * query on a client already known broken without writing it ("not queryable"): that COMMIT never left.
 */
function lostWhileCommitting(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return (
    isConnectionLoss(error) && !(typeof message === 'string' && message.includes('not queryable'))
  );
}

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

/** A prepared statement whose table changed since (feature_not_supported, this message only). */
function isStalePlan(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === '0A000' &&
    typeof message === 'string' &&
    message.includes('cached plan must not change result type')
  );
}

/**
 * A write runs at READ COMMITTED and serializes what it must with `lock(key)`; a read is one
 * REPEATABLE READ snapshot, READ ONLY so that a write inside it fails.
 */
export type Mode = 'read' | 'write';
const BEGIN: Record<Mode, string> = {
  read: 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
  write: 'BEGIN ISOLATION LEVEL READ COMMITTED',
};

export interface PoolOptions {
  connectionString: string;
  /** Every pooled connection uses this schema as its search_path. */
  schema?: string;
  /** Whose clock fenced expiry compares against: the database's (default) or the caller's `now`. */
  clock?: 'database' | 'caller';
}

/**
 * A pg pool. Each transaction takes one pooled client for its whole life and runs at READ COMMITTED;
 * where the SQLite adapter relied on transactions running one at a time, the repositories take
 * named locks (`WriteTransaction.lock`, taken by core; see docs/storage.md), and constraints stay the backstop.
 */
export class Connection {
  private closed = false;
  /** Per pool: a statement's uses, and its name once it has one (statement-names.ts). */
  private readonly names: StatementNames;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly dialect: Dialect,
  ) {
    this.names = new StatementNames(dialect.placeholders);
  }

  static async open(options: PoolOptions): Promise<Connection> {
    if (options.schema !== undefined) checkSchemaName(options.schema);
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      types,
      pipeline: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
    });
    // A connection error must not crash the process: an idle client's reaches the pool, a
    // checked-out client's its own listener (pg rejects its queries in flight with the same error,
    // and the pool discards it when it is released).
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const dialect = options.clock === 'caller' ? postgresCallerClockDialect : postgresDialect;
    const connection = new Connection(pool, dialect);
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
   * A serialization failure, a deadlock, a stale prepared statement or a connection lost before
   * COMMIT was sent (PostgreSQL rolled it back) reruns `fn` from the start, a few times at most; a
   * connection still lost then, or lost after COMMIT was sent, is a StorageFaultError.
   */
  async transaction<T>(
    fn: (sql: Sql, endWith: EndWith) => Promise<T>,
    mode: Mode = 'write',
  ): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.once(fn, mode);
      } catch (error) {
        // A stale prepared statement: the transaction did nothing; run it again, every statement
        // unnamed until named afresh (statement-names.ts).
        const stale = isStalePlan(error);
        if (stale) this.names.forget();
        // Lost while committing: never run again (it may have committed), never acknowledged.
        if (error instanceof StorageFaultError) throw error;
        const again = stale || isRetryable(error) || isConnectionLoss(error);
        if (attempt >= ATTEMPTS || !again) throw asStorageFault(error);
      }
    }
  }

  /**
   * BEGIN is not awaited on its own: it leaves in one write with the statements `fn` sends before
   * its first await (the socket is corked meanwhile), and `beginGate` holds back every statement
   * but a plain SELECT until BEGIN has answered, so nothing can change the database outside the
   * transaction were BEGIN ever to fail. A write's COMMIT is awaited before `fn`'s result is
   * returned (durability); a read's is sent later (`commitOwed`). A write whose `fn` ended with
   * writes (`endWith`) sends COMMIT right behind them, without waiting for their answers: pipeline
   * mode runs it after them, and if one failed, the transaction is aborted and COMMIT answers
   * ROLLBACK (sql/write-transaction.ts).
   */
  private async once<T>(fn: (sql: Sql, endWith: EndWith) => Promise<T>, mode: Mode): Promise<T> {
    if (this.closed) throw new Error('storage is closed');
    const client = await this.pool.connect();
    const stream = client.connection.stream;
    stream.cork();
    let corked = true;
    const uncork = () => {
      if (corked) stream.uncork();
      corked = false;
    };
    let broken = false;
    let committing = false;
    let handle: ScopedSql | null = null;
    try {
      const begin = client.query((commitOwed.delete(client) ? 'COMMIT; ' : '') + BEGIN[mode]);
      handle = scoped(wrap(client, this.dialect, this.names, beginGate(begin)));
      const ending = endingWrites();
      const running = fn(handle.sql, ending.endWith);
      uncork();
      const result = await running;
      // Refuses new statements now; resolves once those already sent have answered.
      const ended = handle.end();
      if (ending.count() === 0) await ended;
      // The gate sends what it held as BEGIN answers, before this line runs.
      await begin;
      // A failed statement fails the transaction with its error (a deadlock or a stale plan is
      // then retried), unless it is an ending guarded update that missed: then with that
      // statement's own rejection, the caller's error (a 409).
      const failed = async (failure: { error: unknown }) =>
        this.dialect.failUnchanged?.missed(failure.error) === true
          ? ((await ending.rejection()) ?? failure).error
          : failure.error;
      if (mode === 'write') {
        const early = handle.failure();
        if (early !== null) {
          await ended;
          throw await failed(early);
        }
        // A transaction a failed statement aborted answers COMMIT with ROLLBACK, not an error.
        committing = true;
        const commit = client.query('COMMIT');
        // Awaited below, after the ending writes: not an unhandled rejection meanwhile.
        commit.catch(() => undefined);
        await ended;
        const committed = await commit;
        const failure = handle.failure();
        if (failure !== null) throw await failed(failure);
        if (committed.command !== 'COMMIT') {
          throw new Error(`the transaction was rolled back (${committed.command})`);
        }
      } else {
        commitOwed.add(client);
        setImmediate(settleOwedCommit, client);
      }
      return result;
    } catch (error) {
      uncork();
      await handle?.end();
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw committing && lostWhileCommitting(error)
        ? new StorageFaultError('outcome_unknown', error)
        : error;
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
