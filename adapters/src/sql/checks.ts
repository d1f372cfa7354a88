import type { CheckRecord, ChecksRepository, ReceiptCheck } from '@runledger/core/ports';
import type { Sql } from './sql.js';
import { chunks } from './chunks.js';
import { selectByIds } from './id-lists.js';

/** Rows per INSERT: 12 parameters each. */
const CHECKS_PER_INSERT = 50;

/** What receipts record of a batch's checks, in each run's order. */
const receiptChecksSql = (ids: string): string =>
  `SELECT run_id, key, category, kind, severity, tier, status, detail FROM checks
   WHERE org_id = ? AND run_id IN (${ids}) ORDER BY run_id, position`;

export function checksRepository(sql: Sql): ChecksRepository {
  return {
    async replace(orgId, runId, checks) {
      // The delete and the inserts go out together (one round trip on PostgreSQL); rows per INSERT
      // stay far below either engine's parameter limit.
      const statements = [
        sql.run('DELETE FROM checks WHERE org_id = ? AND run_id = ?', [orgId, runId]),
      ];
      for (const part of chunks(checks, CHECKS_PER_INSERT)) {
        statements.push(
          sql.run(
            `INSERT INTO checks (id, org_id, run_id, position, key, label, category, kind, severity,
               tier, status, detail)
             VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
            part.flatMap((c) => [
              c.id,
              orgId,
              runId,
              c.position,
              c.key,
              c.label,
              c.category,
              c.kind,
              c.severity,
              c.tier,
              c.status,
              c.detail,
            ]),
          ),
        );
      }
      await Promise.all(statements);
    },
    async listByRun(orgId, runId) {
      return sql.all<CheckRecord>(
        'SELECT * FROM checks WHERE org_id = ? AND run_id = ? ORDER BY position',
        [orgId, runId],
      );
    },
    listByRuns(orgId, runIds) {
      return selectByIds<ReceiptCheck>(sql, runIds, [orgId], receiptChecksSql);
    },
    async get(orgId, runId, id) {
      const row = await sql.get<CheckRecord>(
        'SELECT * FROM checks WHERE org_id = ? AND run_id = ? AND id = ?',
        [orgId, runId, id],
      );
      return row ?? null;
    },
    async grade(orgId, runId, id, status) {
      const result = await sql.run(
        "UPDATE checks SET status = ? WHERE org_id = ? AND run_id = ? AND id = ? AND status = 'open'",
        [status, orgId, runId, id],
      );
      return result.changes === 1;
    },
  };
}
