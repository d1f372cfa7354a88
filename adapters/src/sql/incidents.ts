import type { FlaggedKey, IncidentRecord, IncidentsRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';

export function incidentsRepository(sql: Sql): IncidentsRepository {
  return {
    async insert(i) {
      await sql.run(
        `INSERT INTO incidents (id, org_id, run_id, kind, note, rule_key, created_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [i.id, i.org_id, i.run_id, i.kind, i.note, i.rule_key, i.created_by, i.created_at],
      );
    },
    async listByRun(orgId, runId) {
      return sql.all<IncidentRecord>(
        'SELECT * FROM incidents WHERE org_id = ? AND run_id = ? ORDER BY created_at, id',
        [orgId, runId],
      );
    },
    async flaggedKeysBefore(orgId, projectId, before) {
      return sql.all<FlaggedKey>(
        `SELECT c.key AS key, COUNT(DISTINCT c.run_id) AS runs
         FROM runs r JOIN checks c ON c.org_id = r.org_id AND c.run_id = r.id AND c.status = 'flag'
         WHERE r.org_id = ? AND r.project_id = ? AND r.created_at < ?
         GROUP BY c.key
         ORDER BY runs DESC, key`,
        [orgId, projectId, before],
      );
    },
  };
}
