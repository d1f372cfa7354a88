import type { Actor } from '../actor.js';
import type { Page, Paged } from '../paging.js';
import type {
  WebhookCreateBody,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookUpdateBody,
} from '../schemas/webhook.js';

/** Seals signing secrets for storage and opens them for the delivery worker (AES-256-GCM). */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

/**
 * Refuses a destination the server must not call (docs/webhooks.md, "Request forgery"): throws an
 * `invalid_input` error naming why.
 */
export interface WebhookUrlGuard {
  check(url: string): Promise<void>;
}

/** An organization's webhook endpoints, owners only; every change writes an audit receipt. */
export interface WebhookUseCases {
  create(actor: Actor, input: WebhookCreateBody): Promise<WebhookEndpointWithSecret>;
  list(actor: Actor, page: Page): Promise<Paged<WebhookEndpoint>>;
  get(actor: Actor, id: string): Promise<WebhookEndpoint>;
  update(actor: Actor, id: string, input: WebhookUpdateBody): Promise<WebhookEndpoint>;
  remove(actor: Actor, id: string): Promise<void>;
  /** A new secret, answered once; the previous one keeps signing beside it for 24 hours. */
  rotateSecret(actor: Actor, id: string): Promise<WebhookEndpointWithSecret>;
  /** Queues a `webhook.test` event for this endpoint alone; answers its event id. */
  test(actor: Actor, id: string): Promise<{ event_id: string }>;
  deliveries(actor: Actor, id: string, page: Page): Promise<Paged<WebhookDelivery>>;
  /** Makes a delivery pending again, due now, with a fresh schedule. */
  retry(actor: Actor, id: string, eventId: string): Promise<void>;
}
