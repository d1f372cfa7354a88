import type { ColumnTypes } from '../dialect.js';

/**
 * Migration 11: outbound webhooks (docs/webhooks.md). Endpoints keep their signing secrets sealed
 * (AES-256-GCM, never the plaintext); one subscription row per (endpoint, event type) so an event
 * is written only when someone listens; events are the outbox written with the change that causes
 * them; deliveries are one row per (event, endpoint) (the event id is the delivery's id under its endpoint), claimed under a lease by one instance at a time.
 */
export const WEBHOOKS_SCHEMA = (t: ColumnTypes): string => `
  CREATE TABLE webhook_endpoints (
    id ${t.text} PRIMARY KEY,
    org_id ${t.text} NOT NULL REFERENCES orgs(id),
    url ${t.text} NOT NULL,
    description ${t.text},
    events_json ${t.text} NOT NULL,
    secret_sealed ${t.text} NOT NULL,
    previous_secret_sealed ${t.text},
    previous_secret_until ${t.text},
    enabled ${t.int} NOT NULL CHECK (enabled IN (0, 1)),
    disabled_reason ${t.text},
    failing_since ${t.text},
    created_at ${t.text} NOT NULL,
    updated_at ${t.text} NOT NULL
  );
  CREATE INDEX webhook_endpoints_by_org ON webhook_endpoints (org_id, created_at, id);
  CREATE TABLE webhook_subscriptions (
    endpoint_id ${t.text} NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    org_id ${t.text} NOT NULL,
    event_type ${t.text} NOT NULL,
    PRIMARY KEY (endpoint_id, event_type)
  );
  CREATE INDEX webhook_subscriptions_by_type ON webhook_subscriptions (org_id, event_type);
  CREATE TABLE webhook_events (
    id ${t.text} PRIMARY KEY,
    org_id ${t.text} NOT NULL,
    type ${t.text} NOT NULL,
    payload_text ${t.text} NOT NULL,
    created_at ${t.text} NOT NULL
  );
  CREATE TABLE webhook_deliveries (
    event_id ${t.text} NOT NULL REFERENCES webhook_events(id),
    endpoint_id ${t.text} NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    org_id ${t.text} NOT NULL,
    state ${t.text} NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts ${t.int} NOT NULL,
    next_attempt_at ${t.text},
    lease_owner ${t.text},
    lease_expires_at ${t.text},
    last_status ${t.int},
    last_latency_ms ${t.int},
    last_error ${t.text},
    created_at ${t.text} NOT NULL,
    updated_at ${t.text} NOT NULL,
    PRIMARY KEY (event_id, endpoint_id)
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
  CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at, event_id);
`;
