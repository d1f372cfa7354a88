/**
 * What differs between the engines in the statements both share. Kept small and explicit: the
 * repositories ask the dialect, nothing rewrites SQL text.
 */
import { numberPlaceholders } from './placeholders.js';

/** The column types the schema is written in. */
export interface ColumnTypes {
  /** Text that orders and compares byte by byte (cursor paging must order alike on both engines). */
  readonly text: string;
  /** A 64-bit integer: sizes, counts, sequence numbers. */
  readonly int: string;
  /** An 8-byte float (hours, progress). */
  readonly real: string;
  /** An auto-incrementing integer primary key that never reuses a value. */
  readonly serialKey: string;
}

export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  readonly types: ColumnTypes;
  /** The statement as the driver takes it, from the shared text whose parameters are `?`. */
  readonly placeholders: (text: string) => string;
  /**
   * A statement taking a lock held until the end of the migration's transaction, so two servers
   * starting at once migrate one after the other; null where the write lock already does that.
   */
  readonly migrationLock: string | null;
  /**
   * The database clock as ISO 8601 UTC text with milliseconds (the format every stored time has),
   * or null to bind the caller's `now` instead. Fenced lease and claim expiry compare against it,
   * so instances whose clocks disagree still agree on whether a lease is live.
   */
  readonly now: string | null;
  /**
   * Appended to the SELECT that picks a queued job to lease: it locks the rows it returns and skips
   * rows another transaction holds, so concurrent leases take different jobs instead of queueing
   * on the oldest one's row lock; null where one writer at a time already does that.
   */
  readonly skipLocked: string | null;
  /**
   * Appended to a SELECT that holds the rows it returns until the transaction ends, so a later
   * guarded write of the same transaction cannot miss; null where one writer at a time already does.
   */
  readonly forUpdate: string | null;
  /**
   * For a guarded UPDATE that ends its transaction (`jobs.applyFencedEnding`): `wrap` makes the
   * statement fail when it changes no row, so on an engine that runs what follows before the caller
   * has seen its answer (PostgreSQL's pipeline: the ending writes and COMMIT leave together) the
   * miss aborts the transaction and its COMMIT answers ROLLBACK; `missed` tells that failure from
   * any other. null where a statement has answered before the next is sent (SQLite): the caller
   * sees the miss in time.
   */
  readonly failUnchanged: {
    readonly wrap: (update: string) => string;
    readonly missed: (error: unknown) => boolean;
  } | null;
  /**
   * Refreshes the planner's statistics of a table after a bulk write, or null where plans do not
   * depend on them. PostgreSQL plans by row estimates: a table grown by many rows since its last
   * ANALYZE (autovacuum gets to it within about a minute) is priced as if it were still small.
   */
  readonly analyze: ((table: string) => string) | null;
}

/** One process owns a SQLite file: its clock is the only one, and tests can move it by hand. */
export const sqliteDialect: Dialect = {
  name: 'sqlite',
  types: {
    text: 'TEXT',
    int: 'INTEGER',
    real: 'REAL',
    serialKey: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  },
  placeholders: (text) => text,
  migrationLock: null,
  now: null,
  skipLocked: null,
  forUpdate: null,
  failUnchanged: null,
  // No statistics are ever gathered here: the planner picks by the indexes (see the plan tests).
  analyze: null,
};

/** Any constant key: only migrators take it. */
const MIGRATION_LOCK = 7_364_021;

/** SQLSTATE of division by zero: the only division in a wrapped update is by its count of changed rows. */
const DIVISION_BY_ZERO = '22012';

/** Several instances may share one PostgreSQL database: the server's clock decides expiry. */
export const postgresDialect: Dialect = {
  name: 'postgres',
  // COLLATE "C": ORDER BY and keyset comparisons use byte order, as SQLite does, whatever the
  // database's default collation. REAL would be 4 bytes in PostgreSQL.
  types: {
    text: 'TEXT COLLATE "C"',
    int: 'BIGINT',
    real: 'DOUBLE PRECISION',
    serialKey: 'BIGSERIAL PRIMARY KEY',
  },
  placeholders: numberPlaceholders,
  migrationLock: `SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`,
  now: `to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  skipLocked: 'FOR UPDATE SKIP LOCKED',
  forUpdate: 'FOR UPDATE',
  // Plain SQL has no statement that raises: one divided by the count of changed rows does, at zero.
  failUnchanged: {
    wrap: (update) =>
      `WITH changed AS (${update} RETURNING 1) SELECT 1 / count(*)::int AS one FROM changed`,
    missed: (error) =>
      typeof error === 'object' &&
      error !== null &&
      (error as { code?: unknown }).code === DIVISION_BY_ZERO,
  },
  analyze: (table) => `ANALYZE ${table}`,
};

/** PostgreSQL with the caller's clock: for test worlds that move a manual clock past a lease's expiry. */
export const postgresCallerClockDialect: Dialect = { ...postgresDialect, now: null };
