import type {
  ComputeNodeRecord,
  ComputeNodesRepository,
  QuoteRecord,
  QuotesRepository,
} from '@runledger/core/ports';
import type { Sql } from './sql.js';

export function computeNodesRepository(sql: Sql): ComputeNodesRepository {
  return {
    async insert(n) {
      await sql.run(
        'INSERT INTO compute_nodes (node_id, name, node_class, status, created_at) VALUES (?, ?, ?, ?, ?)',
        [n.node_id, n.name, n.node_class, n.status, n.created_at],
      );
    },
    async list() {
      return sql.all<ComputeNodeRecord>('SELECT * FROM compute_nodes ORDER BY created_at, node_id');
    },
    async count() {
      const row = await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM compute_nodes');
      return row?.n ?? 0;
    },
  };
}

export function quotesRepository(sql: Sql): QuotesRepository {
  return {
    async insert(q) {
      await sql.run(
        `INSERT INTO compute_quotes (quote_id, member_id, node_class, hours, hourly_rate, amount,
                                     currency, receipt_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          q.quote_id,
          q.member_id,
          q.node_class,
          q.hours,
          q.hourly_rate,
          q.amount,
          q.currency,
          q.receipt_id,
          q.created_at,
        ],
      );
    },
    async byId(quoteId) {
      const row = await sql.get<QuoteRecord>('SELECT * FROM compute_quotes WHERE quote_id = ?', [
        quoteId,
      ]);
      return row ?? null;
    },
  };
}
