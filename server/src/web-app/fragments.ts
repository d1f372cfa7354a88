import { escapeHtml } from '../html/escape.js';

/** User text, isolated for bidi so a right-to-left title does not reorder what is around it. */
export const text = (value: unknown) => `<bdi>${escapeHtml(value ?? '')}</bdi>`;

export const time = (iso: string) =>
  `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC'))}</time>`;

export const code = (value: unknown) => `<code>${escapeHtml(value)}</code>`;

/** A table whose cells are already HTML; `caption` names it for screen readers. */
export function table(caption: string, head: string[], rows: string[][]): string {
  if (rows.length === 0) {
    // "Runs" → "runs", but "API keys" stays as written.
    const what = /^.[a-z]/.test(caption) ? caption.toLowerCase() : caption;
    return `<p class="muted">No ${escapeHtml(what)} yet.</p>`;
  }
  return [
    `<table><caption class="muted">${escapeHtml(caption)}</caption>`,
    `<thead><tr class="head">${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>`,
    rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join(''),
    '</tbody></table>',
  ].join('');
}

/** `<option>`s with one selected. */
export const options = (values: readonly { value: string; label: string }[], selected?: string) =>
  values
    .map(
      (o) =>
        `<option value="${escapeHtml(o.value)}"${o.value === selected ? ' selected' : ''}>${escapeHtml(o.label)}</option>`,
    )
    .join('');

/** What a form just did, said once at the top of the page it redirected to (`?done=`). */
const DONE: Record<string, string> = {
  created: 'Run created.',
  evidence: 'Evidence added.',
  uploaded: 'File uploaded.',
  submitted: 'Submission saved.',
  audited: 'Audit done.',
  graded: 'Check graded.',
  finalized: 'Findings finalized.',
  decided: 'Decision recorded.',
  minted: 'Receipt minted.',
  revoked: 'Revoked.',
  invited: 'Invitation sent.',
  role: 'Role changed.',
  saved: 'Saved.',
};

export function doneNotice(done: unknown): string {
  const said = typeof done === 'string' ? DONE[done] : undefined;
  return said === undefined ? '' : `<p class="ok" role="status">${escapeHtml(said)}</p>`;
}

/** A query string from the non-empty values, for links that keep filters. */
export function queryOf(values: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value) params.set(key, value);
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

/** A run's page, or the target of one of its forms. */
export const runPath = (runId: string, tail = '') =>
  `/app/runs/${encodeURIComponent(runId)}${tail}`;
