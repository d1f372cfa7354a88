import type { WebhookUseCases } from '@runledger/core/adapter';
import type { WebhookDelivery } from '@runledger/core/schemas';
import { escapeHtml } from '../../html/escape.js';
import { code, queryOf, table, text, time } from '../fragments.js';
import type { PageHandler } from '../handlers.js';
import { csrfField } from '../layout.js';
import { webhookNotice, webhookPath } from './webhooks.js';

const param = (params: Record<string, unknown>, name: string) => String(params[name]);
const cursorOf = (value: unknown) =>
  typeof value === 'string' && value !== '' ? value : undefined;

function deliveryRow(endpointId: string, d: WebhookDelivery, csrf: string): string[] {
  const retry = `<form method="post" action="${webhookPath(endpointId, `/deliveries/${encodeURIComponent(d.event_id)}/retry`)}" class="inline">${csrfField(csrf)}<button type="submit" class="secondary" aria-label="Retry ${escapeHtml(d.event_id)}">Retry</button></form>`;
  return [
    `${code(d.event_id)}<br>${code(d.event_type)}`,
    `<span class="state">${escapeHtml(d.state)}</span>`,
    String(d.attempts),
    d.last_status === null ? '—' : String(d.last_status),
    d.last_latency_ms === null ? '—' : `${d.last_latency_ms} ms`,
    d.last_error === null ? '—' : text(d.last_error),
    d.next_attempt_at === null ? '—' : time(d.next_attempt_at),
    retry,
  ];
}

/** GET /app/org/webhooks/:webhook_id (owners): one endpoint's delivery log, 50 a page, with retry. */
export function webhookDeliveriesPage(webhooks: WebhookUseCases): PageHandler {
  return async ({ req, person, csrf }) => {
    const id = param(req.params, 'webhook_id');
    const endpoint = await webhooks.get(person, id);
    const after = cursorOf(req.query.after);
    const page = await webhooks.deliveries(person, id, { limit: 50, ...(after ? { after } : {}) });
    const head = ['Event', 'State', 'Attempts', 'Status', 'Latency', 'Error', 'Next attempt', ''];
    const body = [
      webhookNotice(req.query.done),
      `<p>${text(endpoint.url)} ${code(endpoint.id)}</p>`,
      '<p><a href="/app/org/webhooks">Back to the webhooks</a></p>',
      table(
        'Deliveries',
        head,
        page.items.map((d) => deliveryRow(id, d, csrf)),
      ),
      page.next
        ? `<p class="pager"><a rel="next" href="${webhookPath(id)}${queryOf({ after: page.next })}">Next page</a></p>`
        : '',
    ].join('');
    return { title: 'Webhook deliveries', body, current: '/app/org/webhooks' };
  };
}
