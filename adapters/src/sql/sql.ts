import type { Dialect } from './dialect.js';

export type SqlParam = string | number | null;

/** The few statements the repositories need, as promises. Every query is parameterized. */
export interface Sql {
  run(sql: string, params?: SqlParam[]): Promise<{ changes: number }>;
  get<T>(sql: string, params?: SqlParam[]): Promise<T | undefined>;
  all<T>(sql: string, params?: SqlParam[]): Promise<T[]>;
  exec(sql: string): Promise<void>;
  /** The engine these statements run on. */
  readonly dialect: Dialect;
}

/** One transaction's view of `Sql`, from `scoped`. */
export interface ScopedSql {
  sql: Sql;
  /** Refuses new statements and resolves once every statement already issued has settled. */
  end(): Promise<void>;
  /**
   * The first of this transaction's statements that failed, or null. A write with a failed
   * statement does not commit, even if `fn` caught the error: on PostgreSQL the failure has aborted
   * the transaction anyway (its COMMIT answers ROLLBACK), and SQLite is held to the same rule.
   */
  failure(): { error: unknown } | null;
}

/**
 * A handle valid only while its transaction runs, so a repository leaked out of `fn` cannot write
 * later. `fn` may run several statements at once (`Promise.all`): `end()` refuses new statements and
 * resolves once every statement already issued has settled, so nothing of this transaction runs
 * after its COMMIT, ROLLBACK or `ROLLBACK TO` even when `fn` threw before its siblings finished.
 */
export function scoped(sql: Sql): ScopedSql {
  let live = true;
  let failed: { error: unknown } | null = null;
  const inFlight = new Set<Promise<unknown>>();
  const track = (pending: Promise<unknown>): void => {
    const settled: Promise<unknown> = pending.then(
      () => inFlight.delete(settled),
      (error: unknown) => {
        failed ??= { error };
        inFlight.delete(settled);
      },
    );
    inFlight.add(settled);
  };
  const guard =
    <A extends unknown[], R>(f: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      if (!live) return Promise.reject(new Error('transaction already finished'));
      const statement = f(...args);
      track(statement);
      return statement;
    };
  return {
    sql: {
      run: guard(sql.run),
      get: guard(sql.get) as Sql['get'],
      all: guard(sql.all) as Sql['all'],
      exec: guard(sql.exec),
      dialect: sql.dialect,
    },
    end: async () => {
      live = false;
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
    failure: () => failed,
  };
}
