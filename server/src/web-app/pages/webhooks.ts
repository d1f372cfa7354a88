import type { Actor } from '@runledger/core';
import type { WebhookUseCases } from '@runledger/core/adapter';
import { WebhookEventType, type WebhookEndpointWithSecret } from '@runledger/core/schemas';
import { escapeHtml } from '../../html/escape.js';
import { code, table, text, time } from '../fragments.js';
import type { PageHandler } from '../handlers.js';
import { csrfField } from '../layout.js';

const post = (action: string, csrf: string, inner: string, klass = 'inline') =>
  `<form method="post" action="${action}" class="${klass}">${csrfField(csrf)}${inner}</form>`;

/** The path of an endpoint's form target or page. */
export const webhookPath = (id: string, tail = '') =>
  `/app/org/webhooks/${encodeURIComponent(id)}${tail}`;

/** What a webhook form just did, said once at the top of the page it redirected to (`?done=`). */
const DONE: Record<string, string> = {
  enabled: 'Endpoint enabled.',
  disabled: 'Endpoint disabled.',
  deleted: 'Endpoint deleted.',
  tested: 'Test event queued.',
  retried: 'Delivery queued again.',
};

export function webhookNotice(done: unknown): string {
  const said = typeof done === 'string' ? DONE[done] : undefined;
  return said === undefined ? '' : `<p class="ok" role="status">${escapeHtml(said)}</p>`;
}

/** What a create or rotate form just answered: the signing secret, shown in that answer only. */
export type NewSecret = { endpoint: WebhookEndpointWithSecret; rotated: boolean } | null;

function secretNotice(made: NewSecret): string {
  if (made === null) return '';
  const what = made.rotated ? 'The new signing secret' : 'The signing secret';
  return [
    `<div class="secret" role="status"><p>${what} of ${text(made.endpoint.url)}: copy it now, it is shown only this once.</p>`,
    `<p><code id="new-secret">${escapeHtml(made.endpoint.secret)}</code></p>`,
    '<button type="button" class="secondary" data-copy="new-secret">Copy the secret</button> <span id="new-secret-copied" role="status"></span></div>',
  ].join('');
}

function stateOf(e: { enabled: boolean; disabled_reason: string | null }): string {
  if (e.enabled) return '<span class="state">enabled</span>';
  const why = {
    gone: 'the receiver answered 410',
    failing: 'five days of failures',
    owner: 'by an owner',
  };
  const reason = why[e.disabled_reason as keyof typeof why] ?? e.disabled_reason ?? '';
  return `<span class="state">disabled</span> ${escapeHtml(reason)}`;
}

function endpointActions(e: { id: string; url: string; enabled: boolean }, csrf: string): string {
  const name = escapeHtml(e.url);
  const button = (tail: string, label: string, what: string, klass = 'secondary') =>
    post(
      webhookPath(e.id, tail),
      csrf,
      `<button type="submit" class="${klass}" aria-label="${label} ${name}">${what}</button>`,
    );
  return [
    `<a href="${webhookPath(e.id)}" aria-label="Deliveries of ${name}">Deliveries</a>`,
    button('/test', 'Send a test event to', 'Send a test event'),
    e.enabled ? button('/disable', 'Disable', 'Disable') : button('/enable', 'Enable', 'Enable'),
    button('/rotate-secret', 'Rotate the secret of', 'Rotate the secret'),
    button('/delete', 'Delete', 'Delete', 'danger'),
  ].join(' ');
}

function createForm(csrf: string): string {
  const boxes = WebhookEventType.options
    .map(
      (t) =>
        `<div><label><input type="checkbox" name="events" value="${escapeHtml(t)}"> ${code(t)}</label></div>`,
    )
    .join('');
  return post(
    '/app/org/webhooks',
    csrf,
    [
      '<label for="wh-url">Endpoint URL</label><input id="wh-url" name="url" type="url" required maxlength="2000">',
      `<fieldset><legend>Events</legend>${boxes}</fieldset>`,
      '<label for="wh-description">Description (optional)</label><input id="wh-description" name="description" maxlength="500">',
      '<button type="submit">Create the endpoint</button>',
    ].join(''),
    'stack',
  );
}

async function endpointRows(webhooks: WebhookUseCases, person: Actor, csrf: string) {
  const list = await webhooks.list(person, { limit: 200 });
  return list.items.map((e) => [
    `${text(e.url)}${e.description ? `<br><span class="muted">${text(e.description)}</span>` : ''}`,
    e.events.map((t) => code(t)).join(' '),
    stateOf(e),
    time(e.created_at),
    endpointActions(e, csrf),
  ]);
}

/** GET /app/org/webhooks (owners): the endpoints, their actions, and a form creating one. */
export function webhooksPage(webhooks: WebhookUseCases, made: NewSecret = null): PageHandler {
  return async ({ req, person, csrf }) => {
    const rows = await endpointRows(webhooks, person, csrf);
    const body = [
      secretNotice(made),
      webhookNotice(req.query.done),
      '<p>Signed events (Standard Webhooks) sent to your systems; see the webhooks documentation.</p>',
      table('Webhook endpoints', ['URL', 'Events', 'State', 'Created', 'Actions'], rows),
      '<h2 id="new">New endpoint</h2>',
      createForm(csrf),
    ].join('');
    return { title: 'Webhooks', body, current: '/app/org/webhooks' };
  };
}
