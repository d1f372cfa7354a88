import { z } from 'zod';
import { Sha256Hex, Timestamp } from './common.js';
import { IncidentKind } from './enums.js';

/**
 * The events delivered to webhook endpoints (docs/webhooks.md), each a `{type, timestamp, data}`
 * body. They carry ids and hashes, never a secret.
 */
const Id = z.string().min(1);
const AT = '2026-03-01T12:00:00.000Z';

function event<T extends string, D extends z.ZodRawShape>(type: T, data: D, example: object) {
  return z
    .strictObject({ type: z.literal(type), timestamp: Timestamp, data: z.strictObject(data) })
    .meta({ example: { type, timestamp: AT, data: example } });
}

const RUN = 'run_abcdefghijklmnopqrstuvwxyz';
const SHA = 'ab'.repeat(32);

export const WebhookRunCreated = event(
  'run.created',
  { run_id: Id, project_id: Id, flight_sheet_id: Id, title: z.string() },
  {
    run_id: RUN,
    project_id: 'prj_abcdefghijklmnopqrstuvwxyz',
    flight_sheet_id: 'fs_abcdefghijklmnopqrstuvwxyz',
    title: 'nightly eval',
  },
);
export const WebhookRunAudited = event(
  'run.audited',
  { run_id: Id, state: z.string(), needs_grading: z.boolean() },
  { run_id: RUN, state: 'audited', needs_grading: true },
);
export const WebhookRunFinalized = event(
  'run.finalized',
  { run_id: Id, state: z.string() },
  { run_id: RUN, state: 'finalized' },
);
export const WebhookRunDecided = event(
  'run.decided',
  { run_id: Id, decision: z.enum(['approved', 'rejected', 'escalated']) },
  { run_id: RUN, decision: 'approved' },
);
export const WebhookReceiptMinted = event(
  'receipt.minted',
  {
    receipt_id: Id,
    run_id: Id,
    org_seq: z.number().int().nonnegative(),
    receipt_sha256: Sha256Hex,
    share_url: z.string(),
    log_size: z.number().int().positive(),
  },
  {
    receipt_id: 'rcpt-000007-abababab',
    run_id: RUN,
    org_seq: 7,
    receipt_sha256: SHA,
    share_url: 'https://runledger.example/r/abc',
    log_size: 8,
  },
);
export const WebhookIncidentOpened = event(
  'incident.opened',
  { incident_id: Id, run_id: Id, kind: IncidentKind },
  { incident_id: 'inc_abcdefghijklmnopqrstuvwxyz', run_id: RUN, kind: 'rogue' },
);
export const WebhookTribunalVerdictCompleted = event(
  'tribunal.verdict.completed',
  { verdict_id: Id, status: z.string() },
  { verdict_id: 'vrd_abcdefghijklmnopqrstuvwxyz', status: 'complete' },
);
export const WebhookAuditRecorded = event(
  'audit.recorded',
  {
    receipt_id: Id,
    type: z.string(),
    org_seq: z.number().int().nonnegative(),
    receipt_sha256: Sha256Hex,
  },
  { receipt_id: 'audit-000003-cdcdcdcd', type: 'api_key.created', org_seq: 3, receipt_sha256: SHA },
);
export const WebhookTest = event(
  'webhook.test',
  { webhook_id: Id },
  { webhook_id: 'whk_abcdefghijklmnopqrstuvwxyz' },
);

/** Every event schema by its component name in /openapi.json. */
export const WEBHOOK_EVENT_SCHEMAS = {
  WebhookRunCreated,
  WebhookRunAudited,
  WebhookRunFinalized,
  WebhookRunDecided,
  WebhookReceiptMinted,
  WebhookIncidentOpened,
  WebhookTribunalVerdictCompleted,
  WebhookAuditRecorded,
  WebhookTest,
} as const;

type EventSchema = (typeof WEBHOOK_EVENT_SCHEMAS)[keyof typeof WEBHOOK_EVENT_SCHEMAS];
const schemas = Object.values(WEBHOOK_EVENT_SCHEMAS) as [EventSchema, ...EventSchema[]];

export const WebhookEvent = z.discriminatedUnion('type', schemas);
export type WebhookEvent = z.infer<typeof WebhookEvent>;
/** The event types an endpoint may subscribe to. */
export const WebhookEventType = z.enum(
  schemas.map((s) => s.shape.type.value) as [WebhookEvent['type'], ...WebhookEvent['type'][]],
);
export type WebhookEventType = z.infer<typeof WebhookEventType>;
/** The data of one event type. */
export type WebhookEventData<T extends WebhookEventType> = Extract<
  WebhookEvent,
  { type: T }
>['data'];
