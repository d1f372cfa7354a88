import { createHash } from 'node:crypto';
import type { RunReceiptPayload, ShareView } from '@runledger/core';
import { qrSvg } from './qr.js';
import { runPayloadOf, verificationText } from './view.js';
import { escapeHtml } from '../../html/escape.js';

const STYLE = [
  'body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}',
  'h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:1.6rem}',
  'table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}',
  'code,pre{font:13px ui-monospace,monospace;word-break:break-all;white-space:pre-wrap}',
  '.ok{background:#e6f4ea;border:1px solid #5a9;padding:.6rem}.bad{background:#fde8e8;border:1px solid #c55;padding:.6rem}',
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

const row = (cells: unknown[], tag = 'td') =>
  `<tr>${cells.map((c) => `<${tag}>${escapeHtml(c ?? '')}</${tag}>`).join('')}</tr>`;

const table = (head: string[], rows: unknown[][]) =>
  `<table>${row(head, 'th')}${rows.map((r) => row(r)).join('')}</table>`;

function sections(p: RunReceiptPayload, orgName: string): string {
  return [
    '<h2>Run</h2>',
    table(
      ['field', 'value'],
      [
        ['organization', `${orgName} (${p.org_id})`],
        ['run', `${p.run.title} (${p.run.id})`],
        ['project', p.run.project_id],
        ['created', `${p.run.created_at} by ${p.run.created_by}`],
        ['flight sheet', `${p.flight_sheet.slug} ${p.flight_sheet.version} (${p.flight_sheet.id})`],
        ['minted', p.minted_at],
      ],
    ),
    '<h2>Verdict</h2>',
    table(
      ['outcome', 'severity', 'score'],
      [[p.verdict.outcome, p.verdict.severity, p.verdict.score]],
    ),
    '<h2>Approval</h2>',
    table(
      ['decision', 'by', 'at', 'note'],
      [[p.approval.decision, p.approval.decided_by, p.approval.decided_at, p.approval.note ?? '']],
    ),
    '<h2>Checks</h2>',
    table(
      ['key', 'category', 'kind', 'tier', 'status', 'detail'],
      p.checks.map((c) => [c.key, c.category, c.kind, c.tier, c.status, c.detail ?? '']),
    ),
    '<h2>Evidence</h2>',
    p.evidence.length === 0
      ? '<p>None.</p>'
      : table(
          ['kind', 'label', 'size', 'sha256'],
          p.evidence.map((e) => [e.kind, e.label, e.size, e.sha256]),
        ),
  ].join('');
}

/** A readable, self-contained page for people who open a share link in a browser. */
export function shareHtml(view: ShareView): string {
  const { receipt, share_url: shareUrl, pdf_url: pdfUrl } = view;
  const payload = runPayloadOf(receipt);
  const hashes = [
    ['receipt_id', receipt.receipt_id],
    ['org_seq', receipt.org_seq],
    ['created_at', view.created_at],
    ['receipt_sha256', receipt.receipt_sha256],
    ...(payload
      ? [
          ['parent_hash', payload.parent_hash],
          ['submission_sha256', payload.submission_sha256],
          ['flight_sheet.sha256', payload.flight_sheet.sha256],
        ]
      : []),
  ];
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>Receipt ${escapeHtml(receipt.receipt_id)}</title><style>${STYLE}</style></head><body>`,
    `<h1>runledger receipt <code>${escapeHtml(receipt.receipt_id)}</code></h1>`,
    `<p class="${receipt.verified ? 'ok' : 'bad'}">${escapeHtml(verificationText(receipt.verified))}</p>`,
    payload
      ? sections(payload, view.org_name)
      : '<p>The payload is not a well-formed run receipt.</p>',
    '<h2>Hashes</h2>',
    `<table>${hashes.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td><code>${escapeHtml(v)}</code></td></tr>`).join('')}</table>`,
    '<h2>Payload</h2>',
    `<pre>${escapeHtml(JSON.stringify(receipt.payload, null, 2))}</pre>`,
    `<h2>Share</h2><p><a href="${escapeHtml(pdfUrl)}">PDF</a> · <a href="${escapeHtml(shareUrl)}">${escapeHtml(shareUrl)}</a></p>`,
    qrSvg(shareUrl),
    '</body></html>',
  ].join('\n');
}
