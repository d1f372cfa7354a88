import type { Actor } from '@runledger/core';
import type { ApiKeyCreated, InviteCreated } from '@runledger/core/schemas';
import { escapeHtml } from '../../html/escape.js';
import type { AppDeps } from '../deps.js';
import { code, doneNotice, options, table, text, time } from '../fragments.js';
import type { PageHandler } from '../handlers.js';
import { csrfField } from '../layout.js';

const post = (action: string, csrf: string, inner: string, klass = 'inline') =>
  `<form method="post" action="${action}" class="${klass}">${csrfField(csrf)}${inner}</form>`;

/** What a create form just made, shown once on the page it renders (never stored or logged). */
export type Created = { key: ApiKeyCreated } | { invite: InviteCreated } | null;

function createdNotice(created: Created): string {
  if (created === null) return '';
  if ('key' in created) {
    return [
      `<div class="secret" role="status"><p>The new key ${text(created.key.name)}: copy it now, it is shown only this once.</p>`,
      `<p><code id="new-key">${escapeHtml(created.key.key)}</code></p>`,
      '<button type="button" class="secondary" data-copy="new-key">Copy the key</button> <span id="new-key-copied" role="status"></span></div>',
    ].join('');
  }
  const dev = created.invite.dev_link
    ? ` No e-mail is configured here: <a href="${escapeHtml(created.invite.dev_link)}">the invitation link</a>.`
    : '';
  return `<p class="ok" role="status">Invitation sent to ${text(created.invite.email)} as ${escapeHtml(created.invite.role)}.${dev}</p>`;
}

async function keysSection(deps: AppDeps, person: Actor, csrf: string): Promise<string> {
  const keys = await deps.runledger.apiKeys.list(person, { limit: 200 });
  const rows = keys.items.map((k) => [
    text(k.name),
    code(`${k.prefix}…`),
    time(k.created_at),
    k.last_used_at ? time(k.last_used_at) : 'never',
    k.revoked_at
      ? `revoked ${time(k.revoked_at)}`
      : post(
          `/app/org/keys/${encodeURIComponent(k.key_id)}/revoke`,
          csrf,
          `<button type="submit" class="danger" aria-label="Revoke ${escapeHtml(k.name)}">Revoke</button>`,
        ),
  ]);
  return [
    '<h2 id="keys">API keys</h2>',
    table('API keys', ['Name', 'Prefix', 'Created', 'Last used', ''], rows),
    post(
      '/app/org/keys',
      csrf,
      '<label for="key-name">New key name</label><input id="key-name" name="name" required maxlength="200"><button type="submit">Create a key</button>',
      'stack',
    ),
  ].join('');
}

async function membersSection(deps: AppDeps, person: Actor, csrf: string): Promise<string> {
  const members = await deps.runledger.orgs.listMembers(person, { limit: 200 });
  const roles = [
    { value: 'member', label: 'member' },
    { value: 'owner', label: 'owner' },
  ];
  const rows = members.items.map((m) => [
    text(m.email),
    post(
      `/app/org/members/${encodeURIComponent(m.user_id)}/role`,
      csrf,
      `<label class="muted" for="role-${escapeHtml(m.user_id)}">Role of ${escapeHtml(m.email)}</label><select id="role-${escapeHtml(m.user_id)}" name="role">${options(roles, m.role)}</select><button type="submit" class="secondary">Change role</button>`,
    ),
    time(m.joined_at),
  ]);
  return `<h2 id="members">Members</h2>${table('Members', ['E-mail', 'Role', 'Joined'], rows)}`;
}

async function invitesSection(deps: AppDeps, person: Actor, csrf: string): Promise<string> {
  const invites = await deps.runledger.orgs.listInvites(person, { limit: 200 });
  const rows = invites.items.map((i) => [
    text(i.email),
    escapeHtml(i.role),
    i.accepted_at
      ? `accepted ${time(i.accepted_at)}`
      : i.revoked_at
        ? `revoked ${time(i.revoked_at)}`
        : `open until ${time(i.expires_at)} ${post(`/app/org/invites/${encodeURIComponent(i.id)}/revoke`, csrf, `<button type="submit" class="danger" aria-label="Revoke the invitation of ${escapeHtml(i.email)}">Revoke</button>`)}`,
  ]);
  const form = [
    '<label for="inv-email">E-mail address</label><input id="inv-email" name="email" type="email" required maxlength="320">',
    '<label for="inv-role">Role</label><select id="inv-role" name="role"><option value="member">member</option><option value="owner">owner</option></select>',
    '<button type="submit">Send the invitation</button>',
  ].join('');
  return `<h2 id="invites">Invitations</h2>${table('Invitations', ['E-mail', 'Role', 'State'], rows)}${post('/app/org/invites', csrf, form, 'stack')}`;
}

/** GET /app/org (owners): share identity, API keys, members and roles, invitations. */
export function orgPage(deps: AppDeps, created: Created = null): PageHandler {
  return async ({ req, person, csrf }) => {
    const org = await deps.runledger.orgs.get(person);
    const identity = [
      { value: 'email', label: 'their e-mail address' },
      { value: 'id', label: 'their user id only' },
    ];
    const body = [
      createdNotice(created),
      doneNotice(req.query.done),
      `<p>${text(org.name)} ${code(org.id)}</p>`,
      '<h2 id="share">Share pages</h2>',
      post(
        '/app/org/settings',
        csrf,
        `<label for="share-identity">Shared receipts name people by</label><select id="share-identity" name="share_identity">${options(identity, org.share_identity)}</select><button type="submit" class="secondary">Save</button>`,
      ),
      await keysSection(deps, person, csrf),
      await membersSection(deps, person, csrf),
      await invitesSection(deps, person, csrf),
    ].join('');
    return { title: 'Organization', body, current: '/app/org' };
  };
}
