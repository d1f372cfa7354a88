import type {
  ClaimedDelivery,
  DeliverySettlement,
  WebhookDeliveryRecord,
} from '@runledger/core/ports';
import type { Sql } from './sql.js';
import { endpointOfRow } from './webhook-endpoints.js';

/** A due delivery joined with its event and endpoint; endpoint columns are prefixed `ep_`. */
interface ClaimRow extends Omit<WebhookDeliveryRecord, 'event_type'> {
  event_type: string;
  payload_text: string;
  ep_url: string;
  ep_description: string | null;
  ep_events_json: string;
  ep_secret_sealed: string;
  ep_previous_secret_sealed: string | null;
  ep_previous_secret_until: string | null;
  ep_enabled: number;
  ep_disabled_reason: string | null;
  ep_failing_since: string | null;
  ep_created_at: string;
  ep_updated_at: string;
}

const DELIVERY_COLUMNS = `d.event_id, d.endpoint_id, d.org_id, d.state, d.attempts,
  d.next_attempt_at, d.last_status, d.last_latency_ms, d.last_error, d.created_at, d.updated_at`;

export function deliveryOfRow(row: WebhookDeliveryRecord): WebhookDeliveryRecord {
  return {
    event_id: row.event_id,
    event_type: row.event_type,
    endpoint_id: row.endpoint_id,
    org_id: row.org_id,
    state: row.state,
    attempts: Number(row.attempts),
    next_attempt_at: row.next_attempt_at,
    last_status: row.last_status === null ? null : Number(row.last_status),
    last_latency_ms: row.last_latency_ms === null ? null : Number(row.last_latency_ms),
    last_error: row.last_error,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function claimedOfRow(row: ClaimRow): ClaimedDelivery {
  return {
    delivery: deliveryOfRow(row),
    payload_text: row.payload_text,
    endpoint: endpointOfRow({
      id: row.endpoint_id,
      org_id: row.org_id,
      url: row.ep_url,
      description: row.ep_description,
      events_json: row.ep_events_json,
      secret_sealed: row.ep_secret_sealed,
      previous_secret_sealed: row.ep_previous_secret_sealed,
      previous_secret_until: row.ep_previous_secret_until,
      enabled: row.ep_enabled,
      disabled_reason: row.ep_disabled_reason,
      failing_since: row.ep_failing_since,
      created_at: row.ep_created_at,
      updated_at: row.ep_updated_at,
    }),
  };
}

/**
 * Picks due deliveries whose lease is free or expired and leases them: the SELECT locks the
 * delivery rows it returns and skips rows another claimer holds (PostgreSQL; on SQLite the one
 * writer orders claimers), then one UPDATE writes the lease. The endpoint rows are not locked, so
 * instances share one endpoint's backlog.
 */
export async function claimDeliveries(
  sql: Sql,
  owner: string,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const lock = sql.dialect.skipLocked === null ? '' : ' FOR UPDATE OF d SKIP LOCKED';
  const rows = await sql.all<ClaimRow>(
    `SELECT ${DELIVERY_COLUMNS}, ev.type AS event_type, ev.payload_text,
       e.url AS ep_url, e.description AS ep_description, e.events_json AS ep_events_json,
       e.secret_sealed AS ep_secret_sealed, e.previous_secret_sealed AS ep_previous_secret_sealed,
       e.previous_secret_until AS ep_previous_secret_until, e.enabled AS ep_enabled,
       e.disabled_reason AS ep_disabled_reason, e.failing_since AS ep_failing_since,
       e.created_at AS ep_created_at, e.updated_at AS ep_updated_at
     FROM webhook_deliveries d
     JOIN webhook_events ev ON ev.id = d.event_id
     JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.state = 'pending' AND e.enabled = 1 AND d.next_attempt_at <= ?
       AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= ?)
     ORDER BY d.next_attempt_at LIMIT ?${lock}`,
    [now, now, limit],
  );
  if (rows.length === 0) return [];
  const keys = rows.map(() => '(?, ?)').join(', ');
  await sql.run(
    `UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at = ?
     WHERE (event_id, endpoint_id) IN (VALUES ${keys})`,
    [owner, leaseUntil, ...rows.flatMap((r) => [r.event_id, r.endpoint_id])],
  );
  return rows.map(claimedOfRow);
}

/** Records an attempt's outcome and frees the lease, only while `owner` still holds it. */
export async function settleDelivery(
  sql: Sql,
  eventId: string,
  endpointId: string,
  owner: string,
  o: DeliverySettlement,
): Promise<boolean> {
  const { changes } = await sql.run(
    `UPDATE webhook_deliveries SET state = ?, attempts = ?, next_attempt_at = ?, last_status = ?,
       last_latency_ms = ?, last_error = ?, updated_at = ?, lease_owner = NULL,
       lease_expires_at = NULL
     WHERE event_id = ? AND endpoint_id = ? AND lease_owner = ?`,
    [
      o.state,
      o.attempts,
      o.next_attempt_at,
      o.last_status,
      o.last_latency_ms,
      o.last_error,
      o.updated_at,
      eventId,
      endpointId,
      owner,
    ],
  );
  return changes === 1;
}
