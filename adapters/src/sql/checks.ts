import type { CheckRecord, ChecksRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';

export function checksRepository(sql: Sql): ChecksRepository {
  return {
    async replace(orgId, runId, checks) {
      await sql.run('DELETE FROM checks WHERE org_id = ? AND run_id = ?', [orgId, runId]);
      for (const c of checks) {
        await sql.run(
          `INSERT INTO checks (id, org_id, run_id, position, key, label, category, kind, severity, tier,
             status, detail)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
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
          ],
        );
      }
    },
    async listByRun(orgId, runId) {
      return sql.all<CheckRecord>(
        'SELECT * FROM checks WHERE org_id = ? AND run_id = ? ORDER BY position',
        [orgId, runId],
      );
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
