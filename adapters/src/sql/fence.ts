import type { Dialect } from '../sql/dialect.js';
import type { SqlParam } from '../sql/sql.js';

/** The conditions a fenced UPDATE must meet; the shape both core fences (leases, claims) share. */
export interface FenceConditions {
  statuses: readonly string[];
  token: boolean;
  unexpired: boolean;
  expired: boolean;
  worker?: boolean;
  unleased?: boolean;
}

/** What the caller read and presents: the epoch, and the token hash, time and worker the fence may need. */
export interface FenceGuard {
  epoch: number;
  token_hash?: string;
  now?: string;
  worker_id?: string;
}

export interface FenceColumns {
  id: string;
  epoch: string;
  tokenHash: string;
  expiresAt: string;
  worker?: string;
}

/**
 * The WHERE of a fenced compare-and-set: the row is changed only if it still has the epoch the caller
 * read and every condition of the fence holds, so its change count (0 or 1) decides the call.
 * Built from the same fence description the pure state machine used, so the two cannot disagree.
 * Expiry compares against the dialect's database clock when it has one (PostgreSQL), else against
 * the caller's `now`.
 */
export function fencedWhere(
  columns: FenceColumns,
  id: string,
  fence: FenceConditions,
  guard: FenceGuard,
  dialect: Dialect,
): { sql: string; params: SqlParam[] } {
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`fenced update needs ${what}`);
    return value;
  };
  const where = [
    `${columns.id} = ?`,
    `${columns.epoch} = ?`,
    `status IN (${fence.statuses.map(() => '?').join(', ')})`,
  ];
  const params: SqlParam[] = [id, guard.epoch, ...fence.statuses];
  if (fence.token) {
    where.push(`${columns.tokenHash} = ?`);
    params.push(need(guard.token_hash, 'a token hash'));
  }
  const now = (): string => {
    if (dialect.now !== null) return dialect.now;
    params.push(need(guard.now, 'now'));
    return '?';
  };
  if (fence.unexpired) where.push(`${columns.expiresAt} > ${now()}`);
  if (fence.expired) where.push(`${columns.expiresAt} <= ${now()}`);
  if (fence.worker) {
    where.push(`${need(columns.worker, 'a worker column')} = ?`);
    params.push(need(guard.worker_id, 'a worker id'));
  }
  if (fence.unleased) where.push(`${columns.tokenHash} IS NULL`);
  return { sql: where.join(' AND '), params };
}
