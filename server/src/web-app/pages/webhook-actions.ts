import type { WebhookUseCases } from '@runledger/core/adapter';
import { WebhookCreateBody } from '@runledger/core/schemas';
import { fieldsOf, optionalText, parseFields } from '../form.js';
import type { PageHandler } from '../handlers.js';
import { webhookPath, webhooksPage } from './webhooks.js';

const param = (params: Record<string, unknown>, name: string) => String(params[name]);

/** A form's checkboxes: absent, one value or several. */
const listOf = (value: unknown) =>
  value === undefined ? [] : Array.isArray(value) ? (value as unknown[]) : [value];

/** The forms of the webhooks page, each the API's own use case (owner check and audit receipt). */
export function webhookActions(webhooks: WebhookUseCases) {
  const id = (ctx: Parameters<PageHandler>[0]) => param(ctx.req.params, 'webhook_id');
  return {
    create: async (ctx) => {
      const f = fieldsOf(ctx.req);
      const description = optionalText(f.description);
      const input = parseFields(WebhookCreateBody, {
        url: f.url,
        events: listOf(f.events),
        ...(description === undefined ? {} : { description }),
      });
      const endpoint = await webhooks.create(ctx.person, input);
      // Rendered in the answer to the POST (no-store), never put in a URL: the secret is shown once.
      return webhooksPage(webhooks, { endpoint, rotated: false })(ctx);
    },
    rotate: async (ctx) => {
      const endpoint = await webhooks.rotateSecret(ctx.person, id(ctx));
      return webhooksPage(webhooks, { endpoint, rotated: true })(ctx);
    },
    enable: async (ctx) => {
      await webhooks.update(ctx.person, id(ctx), { enabled: true });
      return { redirect: '/app/org/webhooks?done=enabled' };
    },
    disable: async (ctx) => {
      await webhooks.update(ctx.person, id(ctx), { enabled: false });
      return { redirect: '/app/org/webhooks?done=disabled' };
    },
    remove: async (ctx) => {
      await webhooks.remove(ctx.person, id(ctx));
      return { redirect: '/app/org/webhooks?done=deleted' };
    },
    test: async (ctx) => {
      await webhooks.test(ctx.person, id(ctx));
      return { redirect: `${webhookPath(id(ctx))}?done=tested` };
    },
    retry: async (ctx) => {
      await webhooks.retry(ctx.person, id(ctx), param(ctx.req.params, 'delivery_id'));
      return { redirect: `${webhookPath(id(ctx))}?done=retried` };
    },
  } satisfies Record<string, PageHandler>;
}
