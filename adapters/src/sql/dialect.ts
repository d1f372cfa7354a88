/**
 * What differs between the engines in the statements both share. Kept small and explicit: the
 * repositories ask the dialect, nothing rewrites SQL text.
 */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /**
   * The database clock as ISO 8601 UTC text with milliseconds (the format every stored time has),
   * or null to bind the caller's `now` instead. Fenced lease and claim expiry compare against it,
   * so instances whose clocks disagree still agree on whether a lease is live.
   */
  readonly now: string | null;
}

/** One process owns a SQLite file: its clock is the only one, and tests can move it by hand. */
export const sqliteDialect: Dialect = { name: 'sqlite', now: null };

/** Several instances may share one PostgreSQL database: the server's clock decides expiry. */
export const postgresDialect: Dialect = {
  name: 'postgres',
  now: `to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
};

/** PostgreSQL with the caller's clock: for test worlds that move a manual clock past a lease's expiry. */
export const postgresCallerClockDialect: Dialect = { name: 'postgres', now: null };
