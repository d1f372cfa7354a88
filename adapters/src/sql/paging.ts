import type { PageQuery } from '@runledger/core/ports';
import type { SqlParam } from './sql.js';

/**
 * The keyset condition and limit of a page ordered by (created_at, id): with an index on
 * (org_id, created_at, id), a page costs O(limit) however deep it is.
 */
export function pageClause(
  page: PageQuery,
  createdAt: string,
  id: string,
): { where: string; tail: string; params: SqlParam[]; limit: SqlParam[] } {
  const order = `ORDER BY ${createdAt}, ${id} LIMIT ?`;
  if (page.after === null) return { where: '', tail: order, params: [], limit: [page.limit] };
  return {
    where: ` AND (${createdAt}, ${id}) > (?, ?)`,
    tail: order,
    params: [page.after.created_at, page.after.id],
    limit: [page.limit],
  };
}
