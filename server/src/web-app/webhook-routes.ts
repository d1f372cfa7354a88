import type { Router } from 'express';
import type { AppDeps } from './deps.js';
import { action, page } from './handlers.js';
import { webhookActions } from './pages/webhook-actions.js';
import { webhookDeliveriesPage } from './pages/webhook-deliveries.js';
import { webhooksPage } from './pages/webhooks.js';

/** The organization's outbound webhooks (owners only), over the API's own webhook use cases. */
export function mountWebhookPages(router: Router, deps: AppDeps): void {
  const { webhooks } = deps;
  if (webhooks === undefined) return;
  const owner = { owner: true };
  const act = webhookActions(webhooks);
  const one = '/app/org/webhooks/:webhook_id';
  router.get('/app/org/webhooks', page(deps, webhooksPage(webhooks), owner));
  router.post('/app/org/webhooks', action(deps, act.create, owner));
  router.get(one, page(deps, webhookDeliveriesPage(webhooks), owner));
  router.post(`${one}/enable`, action(deps, act.enable, owner));
  router.post(`${one}/disable`, action(deps, act.disable, owner));
  router.post(`${one}/delete`, action(deps, act.remove, owner));
  router.post(`${one}/rotate-secret`, action(deps, act.rotate, owner));
  router.post(`${one}/test`, action(deps, act.test, owner));
  router.post(`${one}/deliveries/:delivery_id/retry`, action(deps, act.retry, owner));
}
