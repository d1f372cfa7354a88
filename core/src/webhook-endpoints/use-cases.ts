import { requireOwner, type Actor } from '../actor.js';
import { notFound } from '../errors.js';
import { newId } from '../ids.js';
import { pageQuery, toPaged } from '../paging.js';
import type { Deps } from '../deps.js';
import type { WebhookEndpointRecord, WriteTransaction } from '../ports/storage.js';
import type { AuditEvent } from '../schemas/audit-receipt.js';
import { auditActor, recordAudit } from '../audit-receipts/record.js';
import type { SecretBox, WebhookUrlGuard, WebhookUseCases } from './api.js';
import { newWebhookSecret, toWebhookDelivery, toWebhookEndpoint } from './views.js';
import { endpointChanges } from './endpoint-changes.js';

/** How long the secret before a rotation keeps signing beside the new one. */
export const PREVIOUS_SECRET_MS = 24 * 3600_000;

export interface WebhookDeps {
  box: SecretBox;
  guard: WebhookUrlGuard;
}

export function webhookUseCases(
  deps: Pick<Deps, 'storage' | 'clock' | 'random'>,
  { box, guard }: WebhookDeps,
): WebhookUseCases {
  const { storage, clock, random } = deps;

  /** Reads the endpoint in a write, applies `change` and audits it, all in one transaction. */
  async function change<T>(
    actor: Actor,
    id: string,
    fn: (tx: WriteTransaction, e: WebhookEndpointRecord, now: Date) => Promise<T>,
  ): Promise<T> {
    const owner = requireOwner(actor);
    return storage.write(async (tx) => {
      const endpoint = await tx.webhookEndpoints.byId(owner.orgId, id);
      if (!endpoint) throw notFound('webhook');
      return fn(tx, endpoint, clock.now());
    });
  }
  const audit = (tx: WriteTransaction, actor: Actor, event: AuditEvent, now: Date) =>
    recordAudit(tx, actor.orgId, auditActor(actor), event, now);
  const about = (e: WebhookEndpointRecord) => ({ webhook_id: e.id, url: e.url });

  return {
    async create(actor, input) {
      const owner = requireOwner(actor);
      await guard.check(input.url);
      const now = clock.now();
      const secret = newWebhookSecret(random);
      const record: WebhookEndpointRecord = {
        id: newId('whk', random),
        org_id: owner.orgId,
        url: input.url,
        description: input.description ?? null,
        events: [...new Set(input.events)].sort(),
        secret_sealed: box.seal(secret),
        previous_secret_sealed: null,
        previous_secret_until: null,
        enabled: true,
        disabled_reason: null,
        failing_since: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      };
      await storage.write(async (tx) => {
        await tx.webhookEndpoints.insert(record);
        await audit(tx, owner, { type: 'webhook.created', ...about(record) }, now);
      });
      return { ...toWebhookEndpoint(record), secret };
    },
    async list(actor, page) {
      const owner = requireOwner(actor);
      const { query, limit } = pageQuery(page);
      const rows = await storage.read((tx) => tx.webhookEndpoints.list(owner.orgId, query));
      return toPaged(
        rows,
        limit,
        (e) => ({ created_at: e.created_at, id: e.id }),
        toWebhookEndpoint,
      );
    },
    async get(actor, id) {
      const owner = requireOwner(actor);
      const e = await storage.read((tx) => tx.webhookEndpoints.byId(owner.orgId, id));
      if (!e) throw notFound('webhook');
      return toWebhookEndpoint(e);
    },
    async update(actor, id, input) {
      if (input.url !== undefined) await guard.check(input.url);
      return change(actor, id, async (tx, e, now) => {
        const next = endpointChanges(e, input, now.toISOString());
        await tx.webhookEndpoints.update(next);
        const event: AuditEvent =
          input.enabled === false && e.enabled
            ? { type: 'webhook.disabled', ...about(next), reason: 'owner' }
            : { type: 'webhook.updated', ...about(next) };
        await audit(tx, actor, event, now);
        return toWebhookEndpoint(next);
      });
    },
    async remove(actor, id) {
      await change(actor, id, async (tx, e, now) => {
        await tx.webhookEndpoints.delete(e.org_id, e.id);
        await audit(tx, actor, { type: 'webhook.deleted', ...about(e) }, now);
      });
    },
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
        await audit(tx, actor, { type: 'webhook.secret_rotated', ...about(e) }, now);
        return { ...toWebhookEndpoint(next), secret };
      });
    },
    async test(actor, id) {
      return change(actor, id, async (tx, e, now) => {
        const at = now.toISOString();
        const payload_text = JSON.stringify({
          type: 'webhook.test',
          timestamp: at,
          data: { webhook_id: e.id },
        });
        const event = { org_id: e.org_id, type: 'webhook.test', payload_text, created_at: at };
        const eventId = await tx.webhookOutbox.emitTo(event, e.id);
        await audit(tx, actor, { type: 'webhook.tested', ...about(e) }, now);
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
      const key = (d: (typeof rows)[number]) => ({ created_at: d.created_at, id: d.event_id });
      return toPaged(rows, limit, key, toWebhookDelivery);
    },
    async retry(actor, id, eventId) {
      await change(actor, id, async (tx, e, now) => {
        if (!(await tx.webhookOutbox.retry(e.org_id, e.id, eventId, now.toISOString()))) {
          throw notFound('delivery');
        }
        await audit(
          tx,
          actor,
          { type: 'webhook.delivery_retried', webhook_id: e.id, event_id: eventId },
          now,
        );
      });
    },
  };
}
