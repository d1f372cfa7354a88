import type { DatasetAccessRecord, DatasetRecord, DatasetsRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';
import { pageClause } from './paging.js';

export function datasetsRepository(sql: Sql): DatasetsRepository {
  return {
    async insert(d) {
      await sql.run(
        `INSERT INTO datasets (dataset_id, name, description, status, error, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [d.dataset_id, d.name, d.description, d.status, d.error, d.created_at, d.updated_at],
      );
    },
    async byId(datasetId) {
      const row = await sql.get<DatasetRecord>('SELECT * FROM datasets WHERE dataset_id = ?', [
        datasetId,
      ]);
      return row ?? null;
    },
    async list(page) {
      const p = pageClause(page, 'created_at', 'dataset_id');
      const where = p.where === '' ? '' : ` WHERE ${p.where.replace(/^ AND /, '')}`;
      return sql.all<DatasetRecord>(`SELECT * FROM datasets${where} ${p.tail}`, [
        ...p.params,
        ...p.limit,
      ]);
    },
    async count() {
      const row = await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM datasets');
      return row?.n ?? 0;
    },
    async grantAccess(g) {
      // ON CONFLICT DO NOTHING keeps the first grant (and its receipt) when two requests race.
      const result = await sql.run(
        `INSERT INTO dataset_access (dataset_id, member_id, receipt_id, granted_at)
         VALUES (?, ?, ?, ?) ON CONFLICT (dataset_id, member_id) DO NOTHING`,
        [g.dataset_id, g.member_id, g.receipt_id, g.granted_at],
      );
      return result.changes === 1;
    },
    async setStatus(datasetId, from, change) {
      const result = await sql.run(
        'UPDATE datasets SET status = ?, error = ?, updated_at = ? WHERE dataset_id = ? AND status = ?',
        [change.status, change.error, change.updated_at, datasetId, from],
      );
      return result.changes === 1;
    },
    async accessOf(datasetId, memberId) {
      const row = await sql.get<DatasetAccessRecord>(
        'SELECT * FROM dataset_access WHERE dataset_id = ? AND member_id = ?',
        [datasetId, memberId],
      );
      return row ?? null;
    },
  };
}
