import { tierOf, type Runledger } from '@runledger/core';
import type { Check, Evidence, RunComposite } from '@runledger/core/schemas';
import { escapeHtml } from '../../html/escape.js';
import type { AppDeps } from '../deps.js';
import { code, doneNotice, runPath, table, text, time } from '../fragments.js';
import type { PageHandler } from '../handlers.js';
import { csrfField } from '../layout.js';
import { evidenceForms, submissionForm } from './run-inputs.js';

const button = (
  runId: string,
  csrf: string,
  tail: string,
  label: string,
  extra = '',
  name = label,
) =>
  `<form method="post" action="${runPath(runId, tail)}" class="inline">${csrfField(csrf)}${extra}<button type="submit" aria-label="${escapeHtml(name)}">${escapeHtml(label)}</button></form>`;

function sheetSection(composite: RunComposite): string {
  const sheet = composite.flight_sheet;
  const rows = sheet.audit_checks.map((rule) => [
    `${text(rule.label)}<br>${code(rule.key)}`,
    escapeHtml(rule.category),
    escapeHtml(rule.kind),
    escapeHtml(rule.severity),
    escapeHtml(tierOf(rule.severity)),
  ]);
  return [
    `<h2>Flight sheet: ${text(sheet.name)} ${escapeHtml(sheet.version)}</h2>`,
    `<p>${text(sheet.summary)}</p>`,
    table('Rules', ['Rule', 'Category', 'Kind', 'Severity', 'Tier'], rows),
  ].join('');
}

function evidenceCell(runId: string, item: Evidence): string {
  if (item.kind === 'file') {
    const href = runPath(runId, `/evidence/${encodeURIComponent(item.id)}/download`);
    return `<a href="${href}" download>Download ${text(item.filename ?? 'file')}</a> <span class="muted">(${item.size} bytes)</span>`;
  }
  return `<pre>${escapeHtml(item.content ?? '')}</pre>`;
}

function evidenceSection(composite: RunComposite): string {
  const rows = composite.evidence.map((item) => [
    text(item.label),
    escapeHtml(item.kind),
    evidenceCell(composite.run.id, item),
  ]);
  return `<h2>Evidence (${composite.evidence.length})</h2>${table('Evidence', ['Label', 'Kind', 'Content'], rows)}`;
}

/** The audit's schema findings beside the submission: each names the JSON path it is about. */
function schemaFindings(composite: RunComposite): string {
  const flagged = composite.checks.filter((c) => c.category === 'schema' && c.status === 'flag');
  return flagged
    .map((c) => `<p class="error" role="alert" id="schema-errors">${text(c.detail)}</p>`)
    .join('');
}

function submissionSection(composite: RunComposite): string {
  const submission = composite.submission;
  if (submission === null) return '<h2>Submission</h2><p class="muted">No submission yet.</p>';
  return [
    '<h2>Submission</h2>',
    schemaFindings(composite),
    `<p class="muted">Submitted ${time(submission.submitted_at)}, SHA-256 ${code(submission.sha256)}</p>`,
    `<pre>${escapeHtml(JSON.stringify(submission.body, null, 2))}</pre>`,
  ].join('');
}

function checkRow(composite: RunComposite, check: Check, csrf: string): string[] {
  const grade =
    check.status === 'open'
      ? ['pass', 'flag']
          .map((status) =>
            button(
              composite.run.id,
              csrf,
              `/checks/${encodeURIComponent(check.id)}`,
              status === 'pass' ? 'Pass' : 'Flag',
              `<input type="hidden" name="status" value="${status}">`,
              `${status === 'pass' ? 'Pass' : 'Flag'}: ${check.label}`,
            ),
          )
          .join(' ')
      : '';
  return [
    `${text(check.label)}<br>${code(check.key)}`,
    `${escapeHtml(check.category)}, ${escapeHtml(check.kind)}, ${escapeHtml(check.severity)} (tier ${escapeHtml(check.tier)})`,
    `<strong>${escapeHtml(check.status)}</strong>`,
    `${text(check.detail)}${grade ? `<div>${grade}</div>` : ''}`,
  ];
}

function checksSection(composite: RunComposite, csrf: string): string {
  const open = composite.checks.filter((c) => c.status === 'open').length;
  const rows = composite.checks.map((check) => checkRow(composite, check, csrf));
  return [
    `<h2>Checks (${composite.checks.length}${open > 0 ? `, ${open} open` : ''})</h2>`,
    table('Checks', ['Check', 'Rule', 'Status', 'Detail'], rows),
  ].join('');
}

function verdictSection(composite: RunComposite): string {
  const v = composite.verdict;
  const a = composite.approval;
  return [
    v
      ? `<h2>Verdict</h2><p>Outcome <strong>${escapeHtml(v.outcome)}</strong>, severity <strong>${escapeHtml(v.severity)}</strong>, score <strong>${v.score}</strong> of 100.</p>`
      : '',
    a
      ? `<h2>Decision</h2><p><strong>${escapeHtml(a.decision)}</strong> on ${time(a.decided_at)}${a.note ? `: <q>${text(a.note)}</q>` : ''}</p>`
      : '',
  ].join('');
}

async function receiptSection(runledger: Runledger, composite: RunComposite): Promise<string> {
  const receipt = composite.receipt;
  if (receipt === null) return '';
  const shared = await runledger.share.get(receipt.share_token);
  const result = shared.verified
    ? '<p class="ok" id="receipt-verified">Verified: the receipt hashes to its recorded SHA-256.</p>'
    : '<p class="error" id="receipt-verified">Not verified: the stored receipt no longer matches its SHA-256.</p>';
  return [
    '<h2>Receipt</h2>',
    result,
    '<dl>',
    `<dt>Receipt</dt><dd>${code(receipt.receipt_id)} (number ${receipt.org_seq} of the ledger)</dd>`,
    `<dt>SHA-256</dt><dd>${code(receipt.receipt_sha256)}</dd>`,
    `<dt>Share link</dt><dd><a id="share-link" href="${escapeHtml(receipt.share_url)}">${escapeHtml(receipt.share_url)}</a></dd>`,
    `<dt>PDF</dt><dd><a href="${escapeHtml(receipt.pdf_url)}">Download the PDF</a></dd>`,
    '</dl>',
  ].join('');
}

/** The next step the run's state offers, as forms; the use cases decide whether it is allowed. */
function nextStep(composite: RunComposite, csrf: string): string {
  const { run, checks, submission } = composite;
  const id = run.id;
  switch (run.state) {
    case 'draft':
      return `${evidenceForms(id, csrf)}${submissionForm(id, csrf)}${submission ? `<h2>Audit</h2>${button(id, csrf, '/audit', 'Audit the submission')}` : ''}`;
    case 'audited':
      return checks.some((c) => c.status === 'open')
        ? '<p class="notice">Grade every open check below, then finalize.</p>'
        : `<h2>Findings</h2>${button(id, csrf, '/findings', 'Finalize the findings')}`;
    case 'finalized':
    case 'escalated':
      return decisionForm(id, csrf);
    case 'approved':
      return `<h2>Receipt</h2>${button(id, csrf, '/receipt', 'Mint the receipt')}`;
    default:
      return '';
  }
}

function decisionForm(runId: string, csrf: string): string {
  return [
    '<h2>Decision</h2>',
    `<form method="post" action="${runPath(runId, '/decision')}" class="stack">${csrfField(csrf)}`,
    '<label for="note">Note (optional)</label><textarea id="note" name="note" maxlength="4000" rows="3"></textarea>',
    '<div>',
    ['approved', 'rejected', 'escalated']
      .map(
        (d) =>
          `<button type="submit" name="decision" value="${d}"${d === 'rejected' ? ' class="danger"' : d === 'escalated' ? ' class="secondary"' : ''}>${{ approved: 'Approve', rejected: 'Reject', escalated: 'Escalate' }[d]}</button>`,
      )
      .join(' '),
    '</div></form>',
  ].join('');
}

/** GET /app/runs/:run_id: everything about one run and the step it is waiting for. */
export function runPage(deps: AppDeps): PageHandler {
  return async ({ req, person, csrf }) => {
    const composite = await deps.runledger.runs.get(person, String(req.params.run_id));
    const { run } = composite;
    const body = [
      doneNotice(req.query.done),
      '<dl>',
      `<dt>State</dt><dd><span class="state" id="run-state">${escapeHtml(run.state)}</span></dd>`,
      `<dt>Run</dt><dd>${code(run.id)}</dd>`,
      `<dt>Created</dt><dd>${time(run.created_at)}</dd>`,
      '</dl>',
      nextStep(composite, csrf),
      verdictSection(composite),
      await receiptSection(deps.runledger, composite),
      checksSection(composite, csrf),
      submissionSection(composite),
      evidenceSection(composite),
      sheetSection(composite),
    ].join('');
    return { title: run.title, body, current: '/app/runs' };
  };
}
