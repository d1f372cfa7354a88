import type { Sql } from './sql.js';
import { chunks } from './chunks.js';

/** Ids per statement: far below SQLite's and PostgreSQL's parameter limits. */
export const IDS_PER_STATEMENT = 500;

/**
 * The rows of `select` for every id of `ids`, one statement per 500 ids (`IN (?, …)`), sent
 * together. `select(placeholders)` returns the statement's text for that many ids; `leading`
 * parameters (an org id) come before the ids. Rows come in statement order, each statement's rows
 * in its own ORDER BY.
 */
export async function selectByIds<T>(
  sql: Sql,
  ids: readonly string[],
  leading: readonly string[],
  select: (placeholders: string) => string,
): Promise<T[]> {
  const rows = await Promise.all(
    chunks(ids, IDS_PER_STATEMENT).map((part) =>
      sql.all<T>(select(part.map(() => '?').join(', ')), [...leading, ...part]),
    ),
  );
  return rows.flat();
}
