import type { RateLimitsRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';

export function rateLimitsRepository(sql: Sql): RateLimitsRepository {
  return {
    async hit(key, windowStart, expiresAt) {
      // One statement, so two instances never read the same count: the row lock of the conflicting
      // insert (PostgreSQL) or the one writer (SQLite) orders them.
      // `all`, not `get`: a get could leave a RETURNING statement unfinished, which blocks
      // the next savepoint.
      const rows = await sql.all<{ hits: number }>(
        `INSERT INTO rate_limit_windows (key, window_start, expires_at, hits) VALUES (?, ?, ?, 1)
         ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1
         RETURNING hits`,
        [key, windowStart, expiresAt],
      );
      return Number(rows[0]!.hits);
    },
    async deleteExpired(now) {
      const result = await sql.run('DELETE FROM rate_limit_windows WHERE expires_at <= ?', [now]);
      return result.changes;
    },
  };
}
