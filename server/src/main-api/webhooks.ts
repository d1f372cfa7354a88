import type { WebhookUseCases } from '@runledger/core/adapter';
import {
  WebhookCreateBody,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
  WebhookTestSent,
  WebhookUpdateBody,
} from '@runledger/core/schemas';
import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';
import { PageQuery, pageOf } from '../http/paging.js';

const Params = z.object({ webhook_id: z.string().min(1).max(200) }).strict();
const DeliveryParams = Params.extend({ delivery_id: z.string().min(1).max(200) }).strict();
const base = { tag: 'webhooks', auth: 'owner' as const };

/** The organization's outbound webhooks (docs/webhooks.md), owners only. */
export function webhookRoutes({ webhooks }: { webhooks: WebhookUseCases }): Route[] {
  return [
    defineRoute({
      ...base,
      method: 'get',
      path: '/org/webhooks',
      summary: 'Webhook endpoints of the organization, paged, without secrets (owner only)',
      query: PageQuery,
      status: 200,
      response: WebhookEndpointList,
      handler: async ({ actor, query }) => {
        const page = await webhooks.list(actor, pageOf(query));
        return { webhooks: page.items, next: page.next };
      },
    }),
    defineRoute({
      ...base,
      method: 'post',
      path: '/org/webhooks',
      summary:
        'Creates a webhook endpoint; its signing `secret` is returned only here, once (owner only)',
      body: WebhookCreateBody,
      status: 201,
      response: WebhookEndpointWithSecret,
      handler: async ({ actor, body }) => webhooks.create(actor, body),
    }),
    defineRoute({
      ...base,
      method: 'get',
      path: '/org/webhooks/{webhook_id}',
      summary: 'One webhook endpoint, without its secret (owner only)',
      params: Params,
      status: 200,
      response: WebhookEndpoint,
      errors: [404],
      handler: async ({ actor, params }) => webhooks.get(actor, params.webhook_id),
    }),
    defineRoute({
      ...base,
      method: 'patch',
      path: '/org/webhooks/{webhook_id}',
      summary: 'Changes its URL, events or description, or disables or re-enables it (owner only)',
      params: Params,
      body: WebhookUpdateBody,
      status: 200,
      response: WebhookEndpoint,
      errors: [404],
      handler: async ({ actor, params, body }) => webhooks.update(actor, params.webhook_id, body),
    }),
    defineRoute({
      ...base,
      method: 'delete',
      path: '/org/webhooks/{webhook_id}',
      summary: 'Deletes the endpoint and its delivery log (owner only)',
      params: Params,
      status: 204,
      response: undefined,
      errors: [404],
      handler: async ({ actor, params }) => webhooks.remove(actor, params.webhook_id),
    }),
    ...webhookActionRoutes(webhooks),
  ];
}

function webhookActionRoutes(webhooks: WebhookUseCases): Route[] {
  return [
    defineRoute({
      ...base,
      method: 'post',
      path: '/org/webhooks/{webhook_id}/rotate-secret',
      summary:
        'A new signing secret, returned once; the previous one keeps signing for 24 hours (owner only)',
      params: Params,
      status: 200,
      response: WebhookEndpointWithSecret,
      errors: [404],
      handler: async ({ actor, params }) => webhooks.rotateSecret(actor, params.webhook_id),
    }),
    defineRoute({
      ...base,
      method: 'post',
      path: '/org/webhooks/{webhook_id}/test',
      summary: 'Queues a `webhook.test` event for this endpoint (owner only)',
      params: Params,
      status: 202,
      response: WebhookTestSent,
      errors: [404],
      handler: async ({ actor, params }) => webhooks.test(actor, params.webhook_id),
    }),
    defineRoute({
      ...base,
      method: 'get',
      path: '/org/webhooks/{webhook_id}/deliveries',
      summary: 'The delivery log of the endpoint, paged (owner only)',
      params: Params,
      query: PageQuery,
      status: 200,
      response: WebhookDeliveryList,
      errors: [404],
      handler: async ({ actor, params, query }) => {
        const page = await webhooks.deliveries(actor, params.webhook_id, pageOf(query));
        return { deliveries: page.items, next: page.next };
      },
    }),
    defineRoute({
      ...base,
      method: 'post',
      path: '/org/webhooks/{webhook_id}/deliveries/{delivery_id}/retry',
      summary: 'Sends a delivery again now, with a fresh retry schedule (owner only)',
      params: DeliveryParams,
      status: 204,
      response: undefined,
      errors: [404],
      handler: async ({ actor, params }) =>
        webhooks.retry(actor, params.webhook_id, params.delivery_id),
    }),
  ];
}
