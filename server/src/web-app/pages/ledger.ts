import { RunledgerError } from '@runledger/core';
import type { LedgerVerifyResult } from '@runledger/core/schemas';
import type { Router } from 'express';
import { streamNdjson } from '../../http/streaming.js';
import { escapeHtml } from '../../html/escape.js';
import type { AppDeps } from '../deps.js';
import { code, table, time } from '../fragments.js';
import { download, page, type PageHandler } from '../handlers.js';

/** `?after=` of a chain page: an org_seq. */
export function seqOf(value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^[0-9]{1,15}$/.test(value)) {
    throw new RunledgerError('invalid_input', 'after: must be a whole number');
  }
  return Number(value);
}

function verifyResult(result: LedgerVerifyResult): string {
  if (result.ok) {
    return `<p class="ok" role="status" id="verify-result">Intact: ${result.receipts_checked} receipts verified (every hash, sequence number and link).</p>`;
  }
  const rows = result.errors.map((e) => [
    code(e.receipt_id),
    String(e.org_seq),
    code(e.code),
    escapeHtml(e.message),
  ]);
  return [
    `<p class="error" role="alert" id="verify-result">Not intact: ${result.errors.length} problem(s) in ${result.receipts_checked} receipts.</p>`,
    table('Faulty receipts', ['Receipt', 'Number', 'Code', 'What is wrong'], rows),
  ].join('');
}

function ledgerPage(deps: AppDeps): PageHandler {
  return async ({ req, person }) => {
    const after = seqOf(req.query.after);
    const [list, checkpoint, verified] = await Promise.all([
      deps.runledger.ledger.list(person, {
        limit: 50,
        ...(after === undefined ? {} : { after_seq: after }),
      }),
      deps.runledger.ledger.checkpoint(person),
      req.query.verify === '1' ? deps.runledger.ledger.verify(person) : Promise.resolve(null),
    ]);
    const rows = list.entries.map((e) => [
      String(e.org_seq),
      code(e.receipt_id),
      time(e.created_at),
      code(e.receipt_sha256),
    ]);
    const body = [
      '<p><a href="/app/ledger?verify=1">Verify the whole chain</a> · <a href="/app/ledger/export" download>Download the export (NDJSON)</a></p>',
      verified === null ? '' : verifyResult(verified),
      '<h2>Signed checkpoint</h2>',
      `<p>Tree size ${checkpoint.tree_size}, signed with key ${code(checkpoint.key_id)}.</p>`,
      `<pre id="checkpoint">${escapeHtml(checkpoint.checkpoint)}</pre>`,
      '<h2>Receipts</h2>',
      table('Receipts', ['Number', 'Receipt', 'Minted', 'SHA-256'], rows),
      list.next
        ? `<p class="pager"><a rel="next" href="/app/ledger?after=${encodeURIComponent(list.next)}">Next page</a></p>`
        : '',
    ].join('');
    return { title: 'Ledger', body, current: '/app/ledger' };
  };
}

/** The ledger for everyone signed in. */
export function mountLedgerPages(router: Router, deps: AppDeps): void {
  router.get('/app/ledger', page(deps, ledgerPage(deps)));
  router.get(
    '/app/ledger/export',
    download(deps, ({ person, res }) =>
      streamNdjson(res, deps.runledger.ledger.export(person), 'ledger.ndjson'),
    ),
  );
}
