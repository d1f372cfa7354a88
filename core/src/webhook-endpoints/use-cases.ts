import { requireOwner } from '../actor.js';
import { notFound } from '../errors.js';
import { newId } from '../ids.js';
import { pageQuery, toPaged } from '../paging.js';
import type { Deps } from '../deps.js';
import type { WebhookEndpointRecord } from '../ports/storage.js';
import type { AuditEvent } from '../schemas/audit-receipt.js';
import type { SecretBox, WebhookUrlGuard, WebhookUseCases } from './api.js';
import { endpointActions } from './actions.js';
import { about, auditChange, changeEndpoint } from './change.js';
import { endpointChanges } from './endpoint-changes.js';
import { newWebhookSecret, toWebhookEndpoint } from './views.js';

export interface WebhookDeps {
  box: SecretBox;
  guard: WebhookUrlGuard;
}

type Ports = Pick<Deps, 'storage' | 'clock' | 'random'>;

/** An organization's webhook endpoints (docs/webhooks.md), owners only; every change audited. */
export function webhookUseCases(ports: Ports, { box, guard }: WebhookDeps): WebhookUseCases {
  return { ...endpointUseCases(ports, box, guard), ...endpointActions(ports, box) };
}

function endpointUseCases(
  { storage, clock, random }: Ports,
  box: SecretBox,
  guard: WebhookUrlGuard,
): Pick<WebhookUseCases, 'create' | 'list' | 'get' | 'update' | 'remove'> {
  const change = changeEndpoint(storage, clock);
  return {
    async create(actor, input) {
      const owner = requireOwner(actor);
      await guard.check(input.url);
      const now = clock.now().toISOString();
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
        created_at: now,
        updated_at: now,
      };
      await storage.write(async (tx) => {
        await tx.webhookEndpoints.insert(record);
        await auditChange(tx, owner, { type: 'webhook.created', ...about(record) }, new Date(now));
      });
      return { ...toWebhookEndpoint(record), secret };
    },
    async list(actor, page) {
      const owner = requireOwner(actor);
      const { query, limit } = pageQuery(page);
      const rows = await storage.read((tx) => tx.webhookEndpoints.list(owner.orgId, query));
      const key = (e: WebhookEndpointRecord) => ({ created_at: e.created_at, id: e.id });
      return toPaged(rows, limit, key, toWebhookEndpoint);
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
        await auditChange(tx, actor, event, now);
        return toWebhookEndpoint(next);
      });
    },
    async remove(actor, id) {
      await change(actor, id, async (tx, e, now) => {
        await tx.webhookEndpoints.delete(e.org_id, e.id);
        await auditChange(tx, actor, { type: 'webhook.deleted', ...about(e) }, now);
      });
    },
  };
}
