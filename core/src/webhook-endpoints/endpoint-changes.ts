import type { WebhookEndpointRecord } from '../ports/storage.js';
import type { WebhookUpdateBody } from '../schemas/webhook.js';

/** The endpoint after a PATCH: fields given replace the stored ones; re-enabling clears the failures. */
export function endpointChanges(
  e: WebhookEndpointRecord,
  input: WebhookUpdateBody,
  at: string,
): WebhookEndpointRecord {
  const enabled = input.enabled ?? e.enabled;
  const reenabled = enabled && !e.enabled;
  return {
    ...e,
    url: input.url ?? e.url,
    description: input.description === undefined ? e.description : input.description,
    events: input.events === undefined ? e.events : [...new Set(input.events)].sort(),
    enabled,
    disabled_reason: enabled ? null : input.enabled === false ? 'owner' : e.disabled_reason,
    failing_since: reenabled ? null : e.failing_since,
    updated_at: at,
  };
}
