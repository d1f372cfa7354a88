import type {
  WebhookDeliveryRecord,
  WebhookEventInput,
  WebhookOutboxRepository,
} from '@runledger/core/ports';
import { cryptoRandom } from '../crypto-random.js';
import { pageClause } from './paging.js';
import type { Sql } from './sql.js';
import { claimDeliveries, deliveryOfRow, settleDelivery } from './webhook-claims.js';

/** SQLite allows 500 terms in a compound SELECT; a batch of events is cut into chunks of this many. */
const EMIT_CHUNK = 100;

/** An ISO time in milliseconds; 0 for one that does not parse (the id stays unique by its random bits). */
function millisOf(iso: string): number {
  const millis = Date.parse(iso);
  return Number.isFinite(millis) && millis >= 0 ? millis : 0;
}

/** The CSPRNG drawn a pool at a time: a call of its own per id cost about 20 µs of a mint. */
const random = cryptoRandom();

/**
 * An event id (`webhook-id`): `msg_`, the time in milliseconds as 12 hex digits, then 128 random
 * bits. The time first keeps ids in creation order, so the outbox's keys and the deliveries' keys
 * grow at the right edge of their B-trees instead of landing on a random page each (fewer pages
 * written per mint, docs/benchmarks.md).
 */
function eventId(millis: number): string {
  const bits = Buffer.from(random.bytes(16)).toString('base64url');
  return `msg_${millis.toString(16).padStart(12, '0')}${bits}`;
}

const LISTENED = `EXISTS (SELECT 1 FROM webhook_subscriptions s
  JOIN webhook_endpoints e ON e.id = s.endpoint_id
  WHERE s.org_id = ? AND s.event_type = ? AND e.enabled = 1)`;

/**
 * Two statements per chunk, sent together: the events somebody listens for (one SELECT per event,
 * each guarded by EXISTS), then a pending delivery for each enabled endpoint subscribed to an
 * inserted event (joined on the events just written, so an event that was not written gets none).
 */
function emitChunk(sql: Sql, events: readonly WebhookEventInput[], now: string) {
  const at = millisOf(now);
  const ids = events.map(() => eventId(at));
  const selects = events.map(
    () => `SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT),
      CAST(? AS TEXT) WHERE ${LISTENED}`,
  );
  const insertEvents = sql.run(
    `INSERT INTO webhook_events (id, org_id, type, payload_text, created_at) ${selects.join(' UNION ALL ')}`,
    events.flatMap((e, i) => [
      ids[i]!,
      e.org_id,
      e.type,
      e.payload_text,
      e.created_at,
      e.org_id,
      e.type,
    ]),
  );
  const insertDeliveries = sql.run(
    `INSERT INTO webhook_deliveries (event_id, endpoint_id, org_id, state, attempts,
       next_attempt_at, created_at, updated_at)
     SELECT ev.id, s.endpoint_id, ev.org_id, 'pending', 0, ?, ?, ?
     FROM webhook_events ev
     JOIN webhook_subscriptions s ON s.org_id = ev.org_id AND s.event_type = ev.type
     JOIN webhook_endpoints e ON e.id = s.endpoint_id AND e.enabled = 1
     WHERE ev.id IN (${ids.map(() => '?').join(', ')})`,
    [now, now, now, ...ids],
  );
  return Promise.all([insertEvents, insertDeliveries]);
}

export function webhookOutboxRepository(sql: Sql): WebhookOutboxRepository {
  return {
    async emit(events, now) {
      const chunks = [];
      for (let i = 0; i < events.length; i += EMIT_CHUNK) {
        chunks.push(emitChunk(sql, events.slice(i, i + EMIT_CHUNK), now));
      }
      await Promise.all(chunks);
    },
    async listenedTypes(orgId) {
      const rows = await sql.all<{ event_type: string }>(
        `SELECT DISTINCT s.event_type FROM webhook_subscriptions s
         JOIN webhook_endpoints e ON e.id = s.endpoint_id
         WHERE s.org_id = ? AND e.enabled = 1`,
        [orgId],
      );
      return new Set(rows.map((row) => row.event_type));
    },
    async emitTo(event, endpointId) {
      const id = eventId(millisOf(event.created_at));
      await Promise.all([
        sql.run(
          'INSERT INTO webhook_events (id, org_id, type, payload_text, created_at) VALUES (?, ?, ?, ?, ?)',
          [id, event.org_id, event.type, event.payload_text, event.created_at],
        ),
        sql.run(
          `INSERT INTO webhook_deliveries (event_id, endpoint_id, org_id, state, attempts,
             next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)`,
          [id, endpointId, event.org_id, event.created_at, event.created_at, event.created_at],
        ),
      ]);
      return id;
    },
    claim: (owner, now, leaseUntil, limit) => claimDeliveries(sql, owner, now, leaseUntil, limit),
    settle: (eventId, endpointId, owner, outcome) =>
      settleDelivery(sql, eventId, endpointId, owner, outcome),
    async failPending(endpointId, reason, now) {
      await sql.run(
        `UPDATE webhook_deliveries SET state = 'failed', next_attempt_at = NULL, last_error = ?,
           updated_at = ?, lease_owner = NULL, lease_expires_at = NULL
         WHERE endpoint_id = ? AND state = 'pending'`,
        [reason, now, endpointId],
      );
    },
    async deliveries(orgId, endpointId, page) {
      const { where, tail, params, limit } = pageClause(page, 'd.created_at', 'd.event_id');
      const rows = await sql.all<WebhookDeliveryRecord>(
        `SELECT d.*, ev.type AS event_type FROM webhook_deliveries d
         JOIN webhook_events ev ON ev.id = d.event_id
         WHERE d.org_id = ? AND d.endpoint_id = ?${where} ${tail}`,
        [orgId, endpointId, ...params, ...limit],
      );
      return rows.map(deliveryOfRow);
    },
    async retry(orgId, endpointId, eventId, now) {
      const { changes } = await sql.run(
        `UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = ?,
           updated_at = ?, lease_owner = NULL, lease_expires_at = NULL
         WHERE org_id = ? AND endpoint_id = ? AND event_id = ?`,
        [now, now, orgId, endpointId, eventId],
      );
      return changes === 1;
    },
    async backlog() {
      const row = await sql.get<{ pending: number | string; oldest: string | null }>(
        `SELECT COUNT(*) AS pending, MIN(created_at) AS oldest FROM webhook_deliveries
         WHERE state = 'pending'`,
      );
      return { pending: Number(row?.pending ?? 0), oldest_created_at: row?.oldest ?? null };
    },
  };
}
