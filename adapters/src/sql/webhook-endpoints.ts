import type { WebhookEndpointRecord, WebhookEndpointsRepository } from '@runledger/core/ports';
import { pageClause } from './paging.js';
import type { Sql } from './sql.js';

interface EndpointRow extends Omit<WebhookEndpointRecord, 'events' | 'enabled'> {
  events_json: string;
  enabled: number;
}

export function endpointOfRow(row: EndpointRow): WebhookEndpointRecord {
  const { events_json, enabled, ...rest } = row;
  return { ...rest, events: JSON.parse(events_json) as string[], enabled: Number(enabled) === 1 };
}

/** The subscriptions of an endpoint, replaced whole: one delete and one multi-row insert. */
async function subscribe(sql: Sql, endpoint: WebhookEndpointRecord, replace: boolean) {
  if (replace) {
    await sql.run('DELETE FROM webhook_subscriptions WHERE endpoint_id = ?', [endpoint.id]);
  }
  if (endpoint.events.length === 0) return;
  const values = endpoint.events.map(() => '(?, ?, ?)').join(', ');
  await sql.run(
    `INSERT INTO webhook_subscriptions (endpoint_id, org_id, event_type) VALUES ${values}`,
    endpoint.events.flatMap((type) => [endpoint.id, endpoint.org_id, type]),
  );
}

export function webhookEndpointsRepository(sql: Sql): WebhookEndpointsRepository {
  return {
    async insert(e) {
      await sql.run(
        `INSERT INTO webhook_endpoints (id, org_id, url, description, events_json, secret_sealed,
           previous_secret_sealed, previous_secret_until, enabled, disabled_reason, failing_since,
           created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          e.id,
          e.org_id,
          e.url,
          e.description,
          JSON.stringify(e.events),
          e.secret_sealed,
          e.previous_secret_sealed,
          e.previous_secret_until,
          e.enabled ? 1 : 0,
          e.disabled_reason,
          e.failing_since,
          e.created_at,
          e.updated_at,
        ],
      );
      await subscribe(sql, e, false);
    },
    async byId(orgId, id) {
      const row = await sql.get<EndpointRow>(
        'SELECT * FROM webhook_endpoints WHERE org_id = ? AND id = ?',
        [orgId, id],
      );
      return row ? endpointOfRow(row) : null;
    },
    async list(orgId, page) {
      const { where, tail, params, limit } = pageClause(page, 'created_at', 'id');
      const rows = await sql.all<EndpointRow>(
        `SELECT * FROM webhook_endpoints WHERE org_id = ?${where} ${tail}`,
        [orgId, ...params, ...limit],
      );
      return rows.map(endpointOfRow);
    },
    async update(e) {
      const { changes } = await sql.run(
        `UPDATE webhook_endpoints SET url = ?, description = ?, events_json = ?, secret_sealed = ?,
           previous_secret_sealed = ?, previous_secret_until = ?, enabled = ?, disabled_reason = ?,
           failing_since = ?, updated_at = ? WHERE org_id = ? AND id = ?`,
        [
          e.url,
          e.description,
          JSON.stringify(e.events),
          e.secret_sealed,
          e.previous_secret_sealed,
          e.previous_secret_until,
          e.enabled ? 1 : 0,
          e.disabled_reason,
          e.failing_since,
          e.updated_at,
          e.org_id,
          e.id,
        ],
      );
      if (changes === 0) return false;
      await subscribe(sql, e, true);
      return true;
    },
    async delete(orgId, id) {
      const found = await sql.get<{ id: string }>(
        'SELECT id FROM webhook_endpoints WHERE org_id = ? AND id = ?',
        [orgId, id],
      );
      if (!found) return false;
      await Promise.all([
        sql.run('DELETE FROM webhook_subscriptions WHERE endpoint_id = ?', [id]),
        sql.run('DELETE FROM webhook_deliveries WHERE endpoint_id = ?', [id]),
      ]);
      await sql.run('DELETE FROM webhook_endpoints WHERE id = ?', [id]);
      return true;
    },
  };
}
