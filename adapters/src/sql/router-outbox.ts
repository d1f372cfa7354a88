import type { RouterOutboxRepository, RouterReceiptInput } from '@runledger/core/ports';
import { writeByIds } from './id-lists.js';
import type { Sql } from './sql.js';

export function routerOutboxRepository(sql: Sql): RouterOutboxRepository {
  return {
    async insert(receipt) {
      await sql.run('INSERT INTO router_receipt_outbox (receipt_id, body) VALUES (?, ?)', [
        receipt.receipt_id,
        JSON.stringify(receipt),
      ]);
    },
    async list(limit) {
      const rows = await sql.all<{ body: string }>(
        'SELECT body FROM router_receipt_outbox ORDER BY position LIMIT ?',
        [limit],
      );
      return rows.map((r) => JSON.parse(r.body) as RouterReceiptInput);
    },
    async delete(receiptIds) {
      // A batch of router calls' rows in one round trip.
      await writeByIds(
        sql,
        receiptIds,
        (list) => `DELETE FROM router_receipt_outbox WHERE receipt_id IN (${list})`,
      );
    },
  };
}
