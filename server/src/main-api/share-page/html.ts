import { createHash } from 'node:crypto';
import type { RunReceiptPayload, ShareView } from '@runledger/core';
import { escapeHtml } from '../../html/escape.js';
import { qrSvg } from './qr.js';
import { personName, runPayloadOf, readableTime } from './view.js';
import { findingOf, LEGEND, STATUS_WORDS, verificationOf, type Verification } from './words.js';

const STYLE = [
  'body{font:15px/1.5 system-ui,"Noto Sans",sans-serif;max-width:62rem;margin:1.5rem auto;padding:0 1rem;color:#1b1b1b}',
  'h1{font-size:1.4rem;margin-bottom:.2rem}h2{font-size:1.1rem;margin-top:1.6rem}',
  'table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:start;vertical-align:top}',
  'code,pre{font:13px ui-monospace,monospace;word-break:break-all;white-space:pre-wrap}',
  '.ok{background:#e6f4ea;border:1px solid #5a9;padding:.6rem}.bad{background:#fde8e8;border:2px solid #c55;padding:.6rem}',
  '.altered{border-left:6px solid #c55;padding-left:.8rem;opacity:.85}.altered h2::after{content:" (altered, not verified)";color:#b42318}',
  '.muted{color:#555;font-size:.9em}dt{font-weight:600}dd{margin:0 0 .4rem 1rem}',
  '.share{display:flex;gap:1rem;align-items:flex-start;flex-wrap:wrap}',
  '@media (max-width:600px){table,tbody,tr,td,th{display:block;width:auto}tr{border-bottom:1px solid #ccc;padding:.3rem 0}td,th{border:0;padding:.1rem .3rem}tr.head{display:none}}',
].join('');

/**
 * The page runs no script and loads nothing: only this exact stylesheet (by hash) is allowed (the QR
 * code is inline SVG markup), so a hostile label in a payload cannot do more than show up as text.
 */
export const SHARE_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** User text, isolated for bidi so a right-to-left title does not reorder what is around it. */
const text = (value: unknown) => `<bdi>${escapeHtml(value ?? '')}</bdi>`;
const time = (iso: string) =>
  `<time datetime="${escapeHtml(iso)}">${escapeHtml(readableTime(iso))}</time>`;
const id = (value: string) => `<span class="muted">(<code>${escapeHtml(value)}</code>)</span>`;

/** A table whose cells are already HTML. */
const table = (head: string[], rows: string[][], klass = '') =>
  `<table${klass ? ` class="${klass}"` : ''}>` +
  (head.length > 0
    ? `<tr class="head">${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`
    : '') +
  rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('') +
  '</table>';

function runSections(p: RunReceiptPayload, view: ShareView): string {
  const { verdict: v, approval: a } = p;
  return [
    '<h2>Run</h2>',
    table(
      [],
      [
        ['Organization', `${text(view.org_name)} ${id(p.org_id)}`],
        ['Project', `${text(view.project_name ?? p.run.project_id)} ${id(p.run.project_id)}`],
        ['Run', `${text(p.run.title)} ${id(p.run.id)}`],
        [
          'Created',
          `${time(p.run.created_at)} by ${text(personName(view.created_by, p.run.created_by))} ${id(p.run.created_by)}`,
        ],
        [
          'Rulebook (flight sheet)',
          `${text(p.flight_sheet.slug)} ${escapeHtml(p.flight_sheet.version)} ${id(p.flight_sheet.id)}`,
        ],
        ['Receipt issued', time(p.minted_at)],
      ],
    ),
    '<h2>Verdict</h2>',
    `<p id="verdict">Outcome <strong>${escapeHtml(v.outcome)}</strong>, severity <strong>${escapeHtml(v.severity)}</strong>, score <strong>${v.score}</strong> of 100 (see the <a href="#legend">legend</a>).</p>`,
    '<h2>Approval</h2>',
    `<p id="approval">${escapeHtml(a.decision === 'approved' ? 'Approved' : a.decision)} by <strong>${text(personName(view.approved_by, a.decided_by))}</strong> ${id(a.decided_by)} on ${time(a.decided_at)}.</p>`,
    a.note ? `<p>Note: <q>${text(a.note)}</q></p>` : '',
    `<h2>Checks (${p.checks.length})</h2>`,
    table(
      ['Check', 'Tier', 'Result', 'Finding', 'Criterion'],
      p.checks.map((c) => {
        const { finding, criterion } = findingOf(c);
        return [
          `${text(c.key)}<br><span class="muted">${escapeHtml(c.category)}, ${c.kind === 'auto' ? 'automatic' : 'reviewer'}</span>`,
          escapeHtml(c.tier),
          escapeHtml(STATUS_WORDS[c.status]),
          text(finding),
          criterion === null ? '' : text(criterion),
        ];
      }),
      'checks',
    ),
    `<h2>Evidence (${p.evidence.length})</h2>`,
    p.evidence.length === 0
      ? '<p>None.</p>'
      : table(
          ['Kind', 'Label', 'Size', 'SHA-256'],
          p.evidence.map((e) => [
            escapeHtml(e.kind),
            text(e.label),
            `${e.size} bytes`,
            `<code>${escapeHtml(e.sha256)}</code>`,
          ]),
        ),
  ].join('\n');
}

/** The escaped line with the verify page's address made a link. */
const linked = (html: string, url: string) => {
  const escaped = escapeHtml(url);
  return html.replace(escaped, `<a href="${escaped}">${escaped}</a>`);
};

function verificationSection(v: Verification): string {
  return [
    '<h2>What was checked</h2>',
    `<p class="muted">As of ${time(v.asOfIso)}, on this server.</p>`,
    table(
      ['Check', 'What it means', 'Result'],
      v.checks.map((c) => [
        escapeHtml(c.name),
        escapeHtml(c.what),
        c.ok ? 'passed' : `<strong>FAILED</strong>: ${c.reasons.map(escapeHtml).join('; ')}`,
      ]),
      'verification',
    ),
    `<p id="authorship">${escapeHtml(v.authorship)}</p>`,
    '<h2>Check it yourself</h2>',
    `<ol id="how-to">${v.howTo.map((line) => `<li>${linked(escapeHtml(line), v.verifyUrl)}</li>`).join('')}</ol>`,
  ].join('\n');
}

const legend = () =>
  `<h2 id="legend">Legend</h2><dl>${LEGEND.map((l) => `<dt>${escapeHtml(l.term)}</dt><dd>${escapeHtml(l.meaning)}</dd>`).join('')}</dl>`;

/** A readable, self-contained page for people who open a share link in a browser. */
export function shareHtml(view: ShareView): string {
  const { receipt, share_url: shareUrl, pdf_url: pdfUrl } = view;
  const payload = runPayloadOf(receipt);
  const v = verificationOf(view);
  const hashes: [string, string | number][] = [
    ['receipt_id', receipt.receipt_id],
    ['org_seq', receipt.org_seq],
    ['receipt_sha256', receipt.receipt_sha256],
    ...(payload
      ? ([
          ['parent_hash', payload.parent_hash],
          ['submission_sha256', payload.submission_sha256],
          ['flight_sheet.sha256', payload.flight_sheet.sha256],
        ] as [string, string][])
      : []),
  ];
  const content = payload
    ? runSections(payload, view)
    : '<h2>Content</h2><p>The stored content is not a well-formed run receipt; it is shown only as raw JSON below.</p>';
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>Receipt ${escapeHtml(receipt.receipt_id)}</title><style>${STYLE}</style></head><body>`,
    `<h1>Receipt <code>${escapeHtml(receipt.receipt_id)}</code></h1>`,
    `<p class="muted">Issued by ${text(view.org_name)} with runledger; stored ${time(view.created_at)}.</p>`,
    `<p id="verification" class="${v.ok ? 'ok' : 'bad'}">${escapeHtml(v.headline)}</p>`,
    v.ok ? content : `<div class="altered">${content}</div>`,
    verificationSection(v),
    legend(),
    '<h2>Hashes</h2>',
    `<table>${hashes.map(([k, val]) => `<tr><th>${escapeHtml(k)}</th><td><code>${escapeHtml(val)}</code></td></tr>`).join('')}</table>`,
    `<h2>Share</h2><div class="share"><div>${qrSvg(shareUrl)}</div><p><a href="${escapeHtml(pdfUrl)}">Download the PDF</a><br><a href="${escapeHtml(shareUrl)}">${escapeHtml(shareUrl)}</a></p></div>`,
    `<details id="payload"><summary>Payload JSON (the exact content the fingerprint covers${v.ok ? '' : '; altered'})</summary><pre>${escapeHtml(JSON.stringify(receipt.payload, null, 2))}</pre></details>`,
    '</body></html>',
  ].join('\n');
}

/**
 * The page a browser gets instead of a JSON error on a share link: an unknown or malformed token is
 * a 404 "not found" (the token is not echoed); anything else says what the JSON `detail` says.
 */
function errorHtml(status: number, detail: string): string {
  const [title, body] =
    status === 404
      ? [
          'Receipt not found',
          'No receipt is shared at this link. Check that the link was copied whole: a share link ends with 43 letters, digits, dashes or underscores.',
        ]
      : ['This receipt cannot be shown now', detail];
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="bad" id="error">${escapeHtml(body)} (HTTP ${status})</p>`,
    '</body></html>',
  ].join('\n');
}

/** Share routes answer a browser's errors with errorHtml under the page's own strict policy. */
export const SHARE_ERROR_PAGE = { csp: SHARE_PAGE_CSP, render: errorHtml } as const;
