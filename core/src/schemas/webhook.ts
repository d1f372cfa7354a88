import { z } from 'zod';
import { Timestamp } from './common.js';
import { WebhookEventType } from './webhook-events.js';

const Cursor = z.string().nullable();
const Url = z.string().min(1).max(2000);
const Description = z.string().max(500);
const Events = z.array(WebhookEventType).min(1).max(20);

export const WebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(WebhookEventType),
  enabled: z.boolean(),
  /** `gone` (the receiver answered 410), `failing` (five days of failures) or `owner`. */
  disabled_reason: z.string().nullable(),
  /** Until when the secret before the last rotation still signs beside the current one. */
  previous_secret_until: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const WebhookEndpointList = z.object({ webhooks: z.array(WebhookEndpoint), next: Cursor });
/** The endpoint with its signing secret (`whsec_…`), answered once at creation or rotation. */
export const WebhookEndpointWithSecret = WebhookEndpoint.extend({ secret: z.string() });

export const WebhookCreateBody = z
  .object({ url: Url, events: Events, description: Description.optional() })
  .strict();
export const WebhookUpdateBody = z
  .object({
    url: Url.optional(),
    events: Events.optional(),
    description: Description.nullable().optional(),
    /** true re-enables a disabled endpoint; false disables it. */
    enabled: z.boolean().optional(),
  })
  .strict();

export const WebhookDelivery = z.object({
  /** The event id, sent as `webhook-id` on every attempt. */
  event_id: z.string(),
  event_type: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int().nonnegative(),
  last_status: z.number().int().nullable(),
  last_latency_ms: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const WebhookDeliveryList = z.object({ deliveries: z.array(WebhookDelivery), next: Cursor });
export const WebhookTestSent = z.object({ event_id: z.string() });

export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecret>;
export type WebhookCreateBody = z.infer<typeof WebhookCreateBody>;
export type WebhookUpdateBody = z.infer<typeof WebhookUpdateBody>;
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;
