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

/** A handle valid only while its transaction runs, so a repository leaked out of `fn` cannot write later. */
export function scoped(sql: Sql): { sql: Sql; end: () => void } {
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
      dialect: sql.dialect,
    },
    end: () => {
      live = false;
    },
  };
}
