import type { LedgerSize, OperationsRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';

export function operationsRepository(sql: Sql): OperationsRepository {
  return {
    async ledgerSizes() {
      // org_seq counts from 0. The head of each chain through UNIQUE (org_id, org_seq): one index probe per org.
      const rows = await sql.all<LedgerSize>(
        `SELECT org_id, receipts FROM (
           SELECT o.id AS org_id,
                  (SELECT MAX(r.org_seq) + 1 FROM receipts r WHERE r.org_id = o.id) AS receipts
           FROM orgs o
         ) sizes WHERE receipts IS NOT NULL`,
      );
      return rows.map((row) => ({ org_id: row.org_id, receipts: Number(row.receipts) }));
    },
    async tribunalQueue() {
      const rows = await sql.all<{ status: string; n: number }>(
        `SELECT status, COUNT(*) AS n FROM tribunal_tasks
         WHERE status IN ('queued', 'claimed') GROUP BY status`,
      );
      const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
      return { queued: count('queued'), claimed: count('claimed') };
    },
  };
}
