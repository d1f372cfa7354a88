import { escapeHtml } from '../html/escape.js';
import type { Person } from './session.js';

/** What a signed-in page shows around its content. */
export interface Frame {
  person: Person;
  csrf: string;
  /** The nav entry to mark as the current page. */
  current?: string;
}

const NAV: { href: string; label: string; owner?: boolean }[] = [
  { href: '/app/runs', label: 'Runs' },
  { href: '/app/runs/new', label: 'New run' },
  { href: '/app/ledger', label: 'Ledger' },
  { href: '/app/projects', label: 'Projects and sheets' },
  { href: '/app/audit', label: 'Audit', owner: true },
  { href: '/app/org', label: 'Organization', owner: true },
  { href: '/app/org/webhooks', label: 'Webhooks', owner: true },
];

/** The hidden field every app form carries. */
export const csrfField = (csrf: string) =>
  `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;

function header(frame: Frame): string {
  const links = NAV.filter((item) => !item.owner || frame.person.role === 'owner').map(
    (item) =>
      `<li><a href="${item.href}"${item.href === frame.current ? ' aria-current="page"' : ''}>${escapeHtml(item.label)}</a></li>`,
  );
  return [
    '<header class="top">',
    '<a class="brand" href="/app/runs">runledger</a>',
    `<nav aria-label="Main"><ul>${links.join('')}</ul></nav>`,
    `<form class="who" method="post" action="/app/sign-out">${csrfField(frame.csrf)}`,
    `<span>${escapeHtml(frame.person.email)} <span class="muted">(${escapeHtml(frame.person.role)})</span></span> `,
    '<button type="submit" class="link">Sign out</button></form>',
    '</header>',
  ].join('');
}

/** A whole page; `body` is already HTML (every user value in it went through escapeHtml). */
export function layout(title: string, body: string, frame: Frame | null): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${escapeHtml(title)} · runledger</title>`,
    '<link rel="stylesheet" href="/app/assets/app.css">',
    '<link rel="icon" href="/app/assets/icon.svg" type="image/svg+xml">',
    '<script src="/app/assets/app.js" defer></script>',
    '</head><body>',
    '<a class="skip" href="#main">Skip to content</a>',
    frame === null
      ? '<header class="top"><span class="brand">runledger</span></header>'
      : header(frame),
    `<main id="main"><h1>${escapeHtml(title)}</h1>`,
    body,
    '</main></body></html>',
  ].join('');
}
