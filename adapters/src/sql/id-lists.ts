import type { Sql } from './sql.js';
import { chunks } from './chunks.js';

/** Ids per statement: far below SQLite's and PostgreSQL's parameter limits. */
const IDS_PER_STATEMENT = 500;

/**
 * One statement per 500 ids of `ids`, sent together: `statement(placeholders)` is its text for that
 * many ids, `leading` parameters (an org id) come before them. Resolves with each statement's result.
 */
function eachIdChunk<R>(
  ids: readonly string[],
  leading: readonly string[],
  statement: (placeholders: string, params: string[]) => Promise<R>,
): Promise<R[]> {
  return Promise.all(
    chunks(ids, IDS_PER_STATEMENT).map((part) =>
      statement(part.map(() => '?').join(', '), [...leading, ...part]),
    ),
  );
}

/** Runs `write` (a DELETE or UPDATE by `IN (…)`) for every id of `ids`, one statement per 500 ids. */
export async function writeByIds(
  sql: Sql,
  ids: readonly string[],
  write: (placeholders: string) => string,
): Promise<void> {
  await eachIdChunk(ids, [], (placeholders, params) => sql.run(write(placeholders), params));
}

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
  const rows = await eachIdChunk(ids, leading, (placeholders, params) =>
    sql.all<T>(select(placeholders), params),
  );
  return rows.flat();
}
