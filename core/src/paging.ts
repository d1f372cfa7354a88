import { invalidInput } from './errors.js';
import type { PageCursor, PageQuery } from './ports/page-query.js';

/** A page request: `limit` defaults to 50 (at most 200); `after` is the opaque cursor from a previous `next`. */
export interface Page {
  limit?: number;
  after?: string;
}

export interface Paged<T> {
  items: T[];
  next: string | null;
}

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;

/** Opaque to clients: base64url of the JSON of the last row's (created_at, id). */
export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify([cursor.created_at, cursor.id])).toString('base64url');
}

export function decodeCursor(text: string): PageCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string'
    ) {
      return { created_at: value[0], id: value[1] };
    }
  } catch {
    // fall through: any undecodable cursor is the caller's mistake
  }
  throw invalidInput('invalid cursor');
}

/** The storage query for a page: one row more than asked, to know whether a next page exists. */
export function pageQuery(page: Page): { query: PageQuery; limit: number } {
  const limit = page.limit ?? DEFAULT_PAGE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw invalidInput(`limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`);
  }
  const after = page.after === undefined || page.after === '' ? null : decodeCursor(page.after);
  return { query: { limit: limit + 1, after }, limit };
}

export function toPaged<R, T>(
  rows: R[],
  limit: number,
  key: (row: R) => PageCursor,
  shape: (row: R) => T,
): Paged<T> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const next = rows.length > limit && last !== undefined ? encodeCursor(key(last)) : null;
  return { items: page.map(shape), next };
}
