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

/**
 * A handle valid only while its transaction runs, so a repository leaked out of `fn` cannot write
 * later. `fn` may run several statements at once (`Promise.all`): `end()` refuses new statements and
 * resolves once every statement already issued has settled, so nothing of this transaction runs
 * after its COMMIT, ROLLBACK or `ROLLBACK TO` even when `fn` threw before its siblings finished.
 */
export function scoped(sql: Sql): { sql: Sql; end: () => Promise<void> } {
  let live = true;
  const inFlight = new Set<Promise<unknown>>();
  const guard =
    <A extends unknown[], R>(f: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      if (!live) return Promise.reject(new Error('transaction already finished'));
      const statement = f(...args);
      const settled: Promise<unknown> = statement.then(
        () => inFlight.delete(settled),
        () => inFlight.delete(settled),
      );
      inFlight.add(settled);
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
  };
}
