import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../ports/storage.js';
import type { WebhookDelivery, WebhookEndpoint } from '../schemas/webhook.js';
import type { WebhookEventType } from '../schemas/webhook-events.js';
import type { Random } from '../ports/random.js';

/** The endpoint as answered: never its secrets. */
export function toWebhookEndpoint(e: WebhookEndpointRecord): WebhookEndpoint {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events as WebhookEventType[],
    enabled: e.enabled,
    disabled_reason: e.disabled_reason,
    previous_secret_until: e.previous_secret_until,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}

export function toWebhookDelivery(d: WebhookDeliveryRecord): WebhookDelivery {
  return {
    event_id: d.event_id,
    event_type: d.event_type,
    state: d.state,
    attempts: d.attempts,
    last_status: d.last_status,
    last_latency_ms: d.last_latency_ms,
    last_error: d.last_error,
    next_attempt_at: d.next_attempt_at,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

/** A Standard Webhooks signing secret: `whsec_` and the base64 of 32 random bytes. */
export function newWebhookSecret(random: Random): string {
  const bytes = random.bytes(32);
  if (bytes.length !== 32) throw new Error('random source returned a short read');
  return `whsec_${Buffer.from(bytes).toString('base64')}`;
}
