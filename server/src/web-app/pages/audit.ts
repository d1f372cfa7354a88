import { RunledgerError } from '@runledger/core';
import { AuditEventType } from '@runledger/core/schemas';
import { escapeHtml } from '../../html/escape.js';
import type { AppDeps } from '../deps.js';
import { code, options, queryOf, table, time } from '../fragments.js';
import type { PageHandler } from '../handlers.js';
import { seqOf } from './ledger.js';

function typeOf(value: unknown): AuditEventType | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = AuditEventType.safeParse(value);
  if (!parsed.success) throw new RunledgerError('invalid_input', 'type: unknown event type');
  return parsed.data;
}

/** GET /app/audit (owners): the audit chain, filtered by event type, 50 a page, and its export. */
export function auditPage(deps: AppDeps): PageHandler {
  return async ({ req, person }) => {
    const type = typeOf(req.query.type);
    const after = seqOf(req.query.after);
    const list = await deps.runledger.audit.list(person, {
      limit: 50,
      ...(type === undefined ? {} : { type }),
      ...(after === undefined ? {} : { after_seq: after }),
    });
    const rows = list.entries.map((e) => [
      String(e.org_seq),
      code(e.event_type),
      time(e.created_at),
      `<pre>${escapeHtml(JSON.stringify(e.payload.event, null, 1))}</pre>`,
    ]);
    const body = [
      '<p><a href="/app/audit/export" download>Download the audit export (NDJSON)</a></p>',
      '<form method="get" action="/app/audit" class="filters" aria-label="Filter the audit receipts">',
      '<label>Event type<select name="type">',
      options(
        [
          { value: '', label: 'Every type' },
          ...AuditEventType.options.map((t) => ({ value: t, label: t })),
        ],
        type ?? '',
      ),
      '</select></label><button type="submit" class="secondary">Filter</button></form>',
      table('Audit receipts', ['Number', 'Event', 'When', 'Details'], rows),
      list.next
        ? `<p class="pager"><a rel="next" href="/app/audit${queryOf({ type, after: list.next })}">Next page</a></p>`
        : '',
    ].join('');
    return { title: 'Audit', body, current: '/app/audit' };
  };
}
