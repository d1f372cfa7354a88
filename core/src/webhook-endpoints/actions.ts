import { requireOwner } from '../actor.js';
import { notFound } from '../errors.js';
import { pageQuery, toPaged } from '../paging.js';
import type { Deps } from '../deps.js';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../ports/storage.js';
import type { SecretBox, WebhookUseCases } from './api.js';
import { about, auditChange, changeEndpoint } from './change.js';
import { newWebhookSecret, toWebhookDelivery, toWebhookEndpoint } from './views.js';

/** How long the secret before a rotation keeps signing beside the new one. */
export const PREVIOUS_SECRET_MS = 24 * 3600_000;

type Actions = Pick<WebhookUseCases, 'rotateSecret' | 'test' | 'deliveries' | 'retry'>;

/** What an owner does with an endpoint: rotate its secret, test it, read and retry its deliveries. */
export function endpointActions(
  { storage, clock, random }: Pick<Deps, 'storage' | 'clock' | 'random'>,
  box: SecretBox,
): Actions {
  const change = changeEndpoint(storage, clock);
  return {
    async rotateSecret(actor, id) {
      const secret = newWebhookSecret(random);
      return change(actor, id, async (tx, e, now) => {
        const next: WebhookEndpointRecord = {
          ...e,
          secret_sealed: box.seal(secret),
          previous_secret_sealed: e.secret_sealed,
          previous_secret_until: new Date(now.getTime() + PREVIOUS_SECRET_MS).toISOString(),
          updated_at: now.toISOString(),
        };
        await tx.webhookEndpoints.update(next);
        await auditChange(tx, actor, { type: 'webhook.secret_rotated', ...about(e) }, now);
        return { ...toWebhookEndpoint(next), secret };
      });
    },
    async test(actor, id) {
      return change(actor, id, async (tx, e, now) => {
        const at = now.toISOString();
        const data = { webhook_id: e.id };
        const payload_text = JSON.stringify({ type: 'webhook.test', timestamp: at, data });
        const event = { org_id: e.org_id, type: 'webhook.test', payload_text, created_at: at };
        const eventId = await tx.webhookOutbox.emitTo(event, e.id);
        await auditChange(tx, actor, { type: 'webhook.tested', ...about(e) }, now);
        return { event_id: eventId };
      });
    },
    async deliveries(actor, id, page) {
      const owner = requireOwner(actor);
      const { query, limit } = pageQuery(page);
      const rows = await storage.read(async (tx) => {
        if (!(await tx.webhookEndpoints.byId(owner.orgId, id))) throw notFound('webhook');
        return tx.webhookOutbox.deliveries(owner.orgId, id, query);
      });
      const key = (d: WebhookDeliveryRecord) => ({ created_at: d.created_at, id: d.event_id });
      return toPaged(rows, limit, key, toWebhookDelivery);
    },
    async retry(actor, id, eventId) {
      await change(actor, id, async (tx, e, now) => {
        if (!(await tx.webhookOutbox.retry(e.org_id, e.id, eventId, now.toISOString()))) {
          throw notFound('delivery');
        }
        const event = {
          type: 'webhook.delivery_retried' as const,
          webhook_id: e.id,
          event_id: eventId,
        };
        await auditChange(tx, actor, event, now);
      });
    },
  };
}
