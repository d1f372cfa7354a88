import type { PageQuery } from './page-query.js';

/** An organization's webhook endpoint as stored: its secrets sealed, never in plaintext. */
export interface WebhookEndpointRecord {
  id: string;
  org_id: string;
  url: string;
  description: string | null;
  /** The event types it is subscribed to, sorted. */
  events: string[];
  /** The signing secret, sealed (SecretBox); only the delivery worker opens it. */
  secret_sealed: string;
  /** The secret before the last rotation, sealed, signing beside the new one until `previous_secret_until`. */
  previous_secret_sealed: string | null;
  previous_secret_until: string | null;
  enabled: boolean;
  /** Why it was disabled (`gone`, `failing`, `owner`), null while enabled. */
  disabled_reason: string | null;
  /** When its current run of failed attempts started, null after a success. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

/** An event of the outbox, written in the transaction of the change that causes it. */
export interface WebhookEventInput {
  org_id: string;
  type: string;
  /** The JSON body sent to every subscribed endpoint: `{type, timestamp, data}`. */
  payload_text: string;
  created_at: string;
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed';

/** One event's delivery to one endpoint: its id is the event's id (the `webhook-id` header). */
export interface WebhookDeliveryRecord {
  event_id: string;
  event_type: string;
  endpoint_id: string;
  org_id: string;
  state: WebhookDeliveryState;
  /** Attempts finished so far. */
  attempts: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** A delivery claimed under a lease, with what sending it needs. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryRecord;
  payload_text: string;
  endpoint: WebhookEndpointRecord;
}

/** What an attempt changed: the delivery's new state, guarded by the claim's lease. */
export interface DeliverySettlement {
  state: WebhookDeliveryState;
  attempts: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  updated_at: string;
}

export interface WebhookEndpointsRepository {
  /** Inserts the endpoint and its subscriptions. */
  insert(endpoint: WebhookEndpointRecord): Promise<void>;
  byId(orgId: string, id: string): Promise<WebhookEndpointRecord | null>;
  /** Ordered by (created_at, id). */
  list(orgId: string, page: PageQuery): Promise<WebhookEndpointRecord[]>;
  /** Replaces every mutable field and the subscriptions; false when there is no such endpoint. */
  update(endpoint: WebhookEndpointRecord): Promise<boolean>;
  /** Deletes the endpoint, its subscriptions and deliveries; false when there was none. */
  delete(orgId: string, id: string): Promise<boolean>;
}

export interface WebhookOutboxRepository {
  /**
   * Writes the events that an enabled endpoint of their organization listens for, with one pending
   * delivery per listening endpoint, due at `now`; an event nobody listens for is not written. Sends
   * its statements at once and reads nothing back (it may join a caller's `Promise.all`).
   */
  emit(events: readonly WebhookEventInput[], now: string): Promise<void>;
  /**
   * The event types some enabled endpoint of the organization subscribes to, so a caller can skip
   * building the events nobody listens for (emit drops them anyway).
   */
  listenedTypes(orgId: string): Promise<ReadonlySet<string>>;
  /** Writes one event for one endpoint only (a `webhook.test`), due at once; returns its id. */
  emitTo(event: WebhookEventInput, endpointId: string): Promise<string>;
  /**
   * Leases up to `limit` pending deliveries due at `now` whose lease is free or expired to `owner`
   * until `leaseUntil`: concurrent claimers take different rows (PostgreSQL: SKIP LOCKED).
   */
  claim(owner: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]>;
  /** Records an attempt's outcome if `owner` still holds the lease, and frees it; false otherwise. */
  settle(
    eventId: string,
    endpointId: string,
    owner: string,
    outcome: DeliverySettlement,
  ): Promise<boolean>;
  /** Fails every pending delivery of the endpoint (it was disabled). */
  failPending(endpointId: string, reason: string, now: string): Promise<void>;
  /** An endpoint's deliveries, newest first, keyset-paged on (created_at, event id) descending. */
  deliveries(orgId: string, endpointId: string, page: PageQuery): Promise<WebhookDeliveryRecord[]>;
  /** Makes the delivery pending again, due at `now`, with a fresh schedule; false when there is none. */
  retry(orgId: string, endpointId: string, eventId: string, now: string): Promise<boolean>;
  /** Pending deliveries and the creation time of the oldest (for the metrics). */
  backlog(): Promise<{ pending: number; oldest_created_at: string | null }>;
}
