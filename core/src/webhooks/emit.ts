import type {
  AuditReceiptRecord,
  IncidentRecord,
  ReceiptRecord,
  Repositories,
  RunChanges,
  RunRecord,
  TribunalVerdictRecord,
} from '../ports/storage.js';
import type { WebhookEvent } from '../schemas/webhook-events.js';
import { shareUrl } from '../receipts/share.js';

type EventOf<T extends WebhookEvent['type']> = Omit<
  Extract<WebhookEvent, { type: T }>,
  'timestamp'
>;

/**
 * Writes events to the outbox in the caller's transaction, so they are kept or dropped with the
 * change that causes them (docs/webhooks.md). The body is built here once: `{type, timestamp, data}`.
 * Sends its statements at once; nothing is written for an event no endpoint of the org listens to.
 */
export function emitWebhookEvents(
  tx: Repositories,
  orgId: string,
  events: readonly Omit<WebhookEvent, 'timestamp'>[],
  at: string,
): Promise<void> {
  if (events.length === 0) return Promise.resolve();
  return tx.webhookOutbox.emit(
    events.map((e) => ({
      org_id: orgId,
      type: e.type,
      payload_text: JSON.stringify({ type: e.type, timestamp: at, data: e.data }),
      created_at: at,
    })),
    at,
  );
}

/** Whether `type` is among the event types an org's endpoints listen to (`listenedTypes`). */
export function isListened(listened: ReadonlySet<string>, type: WebhookEvent['type']): boolean {
  return listened.has(type);
}

/** `run.created` for a run just inserted. */
export function emitRunCreated(tx: Repositories, run: RunRecord): Promise<void> {
  const data = {
    run_id: run.id,
    project_id: run.project_id,
    flight_sheet_id: run.flight_sheet_id,
    title: run.title,
  };
  return emitWebhookEvents(tx, run.org_id, [{ type: 'run.created', data }], run.created_at);
}

/** The events of a run's state change: audited, finalized, decided (minting has its own). */
export function runChangeEvents(
  run: RunRecord,
  changes: RunChanges,
): EventOf<WebhookEvent['type']>[] {
  const to = changes.state;
  if (to === undefined || to === run.state) return [];
  const run_id = run.id;
  if (to === 'audited')
    return [{ type: 'run.audited', data: { run_id, state: to, needs_grading: true } }];
  if (to === 'finalized') {
    const finalized: EventOf<'run.finalized'> = {
      type: 'run.finalized',
      data: { run_id, state: to },
    };
    if (run.state !== 'draft') return [finalized];
    return [{ type: 'run.audited', data: { run_id, state: to, needs_grading: false } }, finalized];
  }
  if (to === 'approved' || to === 'rejected' || to === 'escalated') {
    return [{ type: 'run.decided', data: { run_id, decision: to } }];
  }
  return [];
}

export function emitRunChange(
  tx: Repositories,
  run: RunRecord,
  changes: RunChanges,
): Promise<void> {
  return emitWebhookEvents(tx, run.org_id, runChangeEvents(run, changes), changes.updated_at);
}

/** `receipt.minted` for receipts of one organization minted in this transaction, in org_seq order. */
export function emitReceiptsMinted(
  tx: Repositories,
  orgId: string,
  records: readonly ReceiptRecord[],
  publicBaseUrl: string,
): Promise<void> {
  const events = records.map((r): EventOf<'receipt.minted'> => ({
    type: 'receipt.minted',
    data: {
      receipt_id: r.receipt_id,
      run_id: r.run_id,
      org_seq: r.org_seq,
      receipt_sha256: r.receipt_sha256,
      share_url: shareUrl(publicBaseUrl, r.share_token),
      log_size: r.org_seq + 1,
    },
  }));
  return emitWebhookEvents(tx, orgId, events, records[0]?.created_at ?? '');
}

/** `audit.recorded` for audit receipts appended in this transaction. */
export function emitAuditRecorded(
  tx: Repositories,
  orgId: string,
  records: readonly AuditReceiptRecord[],
): Promise<void> {
  const events = records.map((r): EventOf<'audit.recorded'> => ({
    type: 'audit.recorded',
    data: {
      receipt_id: r.receipt_id,
      type: r.event_type,
      org_seq: r.org_seq,
      receipt_sha256: r.receipt_sha256,
    },
  }));
  return emitWebhookEvents(tx, orgId, events, records[0]?.created_at ?? '');
}

export function emitIncidentOpened(tx: Repositories, incident: IncidentRecord): Promise<void> {
  const data = { incident_id: incident.id, run_id: incident.run_id, kind: incident.kind };
  return emitWebhookEvents(
    tx,
    incident.org_id,
    [{ type: 'incident.opened', data }],
    incident.created_at,
  );
}

/** `tribunal.verdict.completed` when a verdict's move makes it complete. */
export function emitVerdictCompleted(
  tx: Repositories,
  verdict: TribunalVerdictRecord,
  status: string | undefined,
  at: string,
): Promise<void> {
  if (status !== 'complete' || verdict.status === 'complete') return Promise.resolve();
  const data = { verdict_id: verdict.verdict_id, status };
  return emitWebhookEvents(tx, verdict.org_id, [{ type: 'tribunal.verdict.completed', data }], at);
}
