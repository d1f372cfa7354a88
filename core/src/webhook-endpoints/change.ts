import { requireOwner, type Actor } from '../actor.js';
import { auditActor, recordAudit } from '../audit-receipts/record.js';
import { notFound } from '../errors.js';
import type { Storage, WebhookEndpointRecord, WriteTransaction } from '../ports/storage.js';
import type { AuditEvent } from '../schemas/audit-receipt.js';
import type { Clock } from '../ports/clock.js';

/** A change to one endpoint: its transaction, the endpoint as read in it, and the time. */
export type EndpointChange<T> = (
  tx: WriteTransaction,
  endpoint: WebhookEndpointRecord,
  now: Date,
) => Promise<T>;

/** Reads an owner's endpoint in a write transaction and applies `fn` to it there; 404 when absent. */
export function changeEndpoint(storage: Storage, clock: Clock) {
  return async <T>(actor: Actor, id: string, fn: EndpointChange<T>): Promise<T> => {
    const owner = requireOwner(actor);
    return storage.write(async (tx) => {
      const endpoint = await tx.webhookEndpoints.byId(owner.orgId, id);
      if (!endpoint) throw notFound('webhook');
      return fn(tx, endpoint, clock.now());
    });
  };
}

/** Writes the audit receipt of a change, in its transaction. */
export const auditChange = (tx: WriteTransaction, actor: Actor, event: AuditEvent, now: Date) =>
  recordAudit(tx, actor.orgId, auditActor(actor), event, now);

/** What every `webhook.*` audit event names. */
export const about = (e: WebhookEndpointRecord) => ({ webhook_id: e.id, url: e.url });
