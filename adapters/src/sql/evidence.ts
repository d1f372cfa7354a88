import type { EvidenceRecord, EvidenceRepository, ReceiptEvidence } from '@runledger/core/ports';
import type { Sql } from './sql.js';
import { selectByIds } from './id-lists.js';

/** What receipts record of a batch's evidence, in each run's order: never the content. */
const receiptEvidenceSql = (ids: string): string =>
  `SELECT run_id, id, kind, label, sha256, size FROM evidence
   WHERE org_id = ? AND run_id IN (${ids}) ORDER BY run_id, created_at, id`;

export function evidenceRepository(sql: Sql): EvidenceRepository {
  return {
    async insert(e) {
      await sql.run(
        `INSERT INTO evidence (id, org_id, run_id, kind, label, content, sha256, size, filename,
           content_type, created_at, created_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          e.id,
          e.org_id,
          e.run_id,
          e.kind,
          e.label,
          e.content,
          e.sha256,
          e.size,
          e.filename,
          e.content_type,
          e.created_at,
          e.created_by,
        ],
      );
    },
    async get(orgId, runId, id) {
      const row = await sql.get<EvidenceRecord>(
        'SELECT * FROM evidence WHERE org_id = ? AND run_id = ? AND id = ?',
        [orgId, runId, id],
      );
      return row ?? null;
    },
    async listByRun(orgId, runId) {
      return sql.all<EvidenceRecord>(
        'SELECT * FROM evidence WHERE org_id = ? AND run_id = ? ORDER BY created_at, id',
        [orgId, runId],
      );
    },
    listByRuns(orgId, runIds) {
      return selectByIds<ReceiptEvidence>(sql, runIds, [orgId], receiptEvidenceSql);
    },
    async countFileRefs(sha256) {
      // Blobs are content-addressed and shared across orgs, so this count is deliberately global.
      const row = await sql.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM evidence WHERE kind = 'file' AND sha256 = ?",
        [sha256],
      );
      return row?.n ?? 0;
    },
  };
}
