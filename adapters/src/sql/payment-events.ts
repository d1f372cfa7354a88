import type { PaymentEventRecord, PaymentEventsRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';

export function paymentEventsRepository(sql: Sql): PaymentEventsRepository {
  return {
    async insert(e) {
      // ON CONFLICT DO NOTHING: a redelivered event id leaves the first record as it was.
      const result = await sql.run(
        `INSERT INTO payment_events
           (event_id, type, member_id, amount, currency, outcome, receipt_id, received_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING`,
        [
          e.event_id,
          e.type,
          e.member_id,
          e.amount,
          e.currency,
          e.outcome,
          e.receipt_id,
          e.received_at,
        ],
      );
      return result.changes === 1;
    },
    async byId(eventId) {
      const row = await sql.get<PaymentEventRecord>(
        'SELECT * FROM payment_events WHERE event_id = ?',
        [eventId],
      );
      return row ?? null;
    },
  };
}
