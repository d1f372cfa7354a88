import { z } from 'zod';
import { NextCursor, Sha256Hex } from './common.js';
import { IncidentKind, Role, ShareIdentity } from './enums.js';

/**
 * Audit receipts (docs/audit.md): one per sensitive action, chained per organization in the
 * format of run receipts. Every event type is a named schema; none carries a secret (no token,
 * key, link or hash of one).
 */

/** ISO 8601 UTC with exactly three fractional digits, as Date.prototype.toISOString writes it. */
const Time = z.iso.datetime({ precision: 3 });
const Id = z.string().min(1);
const Count = z.int().nonnegative();

/** Who did it: a person, an API key, nobody known (failed sign-ins), or the deployment itself. */
export const AuditActorKind = z.enum(['user', 'api_key', 'anonymous', 'deployment']);
export const AuditActor = z.strictObject({ kind: AuditActorKind, id: z.string().nullable() });

export const AuditApiKeyCreated = z.strictObject({
  type: z.literal('api_key.created'),
  key_id: Id,
  name: z.string(),
  /** The public start of the key (`rlk_<key_id>_`), never the secret. */
  prefix: z.string(),
});
export const AuditApiKeyRevoked = z.strictObject({
  type: z.literal('api_key.revoked'),
  key_id: Id,
  name: z.string(),
  before: z.strictObject({ revoked_at: z.null() }),
  after: z.strictObject({ revoked_at: Time }),
});
export const AuditApiKeyFirstUsed = z.strictObject({
  type: z.literal('api_key.first_used'),
  key_id: Id,
  name: z.string(),
  created_by: Id,
});
export const AuditInviteCreated = z.strictObject({
  type: z.literal('invite.created'),
  invite_id: Id,
  email: z.string(),
  role: Role,
  expires_at: Time,
});
export const AuditInviteAccepted = z.strictObject({
  type: z.literal('invite.accepted'),
  invite_id: Id,
  email: z.string(),
  role: Role,
  user_id: Id,
});
export const AuditInviteRevoked = z.strictObject({
  type: z.literal('invite.revoked'),
  invite_id: Id,
  email: z.string(),
  role: Role,
});
export const AuditMemberRoleChanged = z.strictObject({
  type: z.literal('member.role_changed'),
  user_id: Id,
  email: z.string(),
  before: z.strictObject({ role: Role }),
  after: z.strictObject({ role: Role }),
});
export const AuditMemberRemoved = z.strictObject({
  type: z.literal('member.removed'),
  user_id: Id,
  email: z.string(),
  before: z.strictObject({ role: Role }),
});
export const AuditOrgShareIdentityChanged = z.strictObject({
  type: z.literal('org.share_identity_changed'),
  before: z.strictObject({ share_identity: ShareIdentity }),
  after: z.strictObject({ share_identity: ShareIdentity }),
});
export const AuditFlightSheetPublished = z.strictObject({
  type: z.literal('flight_sheet.published'),
  flight_sheet_id: Id,
  slug: Id,
  version: z.string(),
  sha256: Sha256Hex,
  /** The version it supersedes; null for a new slug. */
  before: z.strictObject({ version: z.string().nullable() }),
});
export const AuditShareLinkCreated = z.strictObject({
  type: z.literal('share_link.created'),
  /** The receipt the link shows; the link itself is a capability and is never recorded. */
  receipt_id: Id,
  run_id: Id,
});
export const AuditSigningKeyRotated = z.strictObject({
  type: z.literal('signing_key.rotated'),
  key_id: Id,
  previous_key_id: z.string().nullable(),
});
/**
 * The deployment started on a database whose log is shorter than, or differs from, a checkpoint
 * it had already signed (a restore from an older backup), because the operator set
 * ACCEPT_HISTORY_ROLLBACK=1 (docs/operations.md, "History protection").
 */
export const AuditHistoryRollbackAccepted = z.strictObject({
  type: z.literal('history.rollback_accepted'),
  log: Id,
  signed: z.strictObject({ tree_size: Count, root_hash: Sha256Hex, time: z.string() }),
  /** The log's size in the database the deployment started on. */
  tree_size: Count,
});
export const AuditSignInSucceeded = z.strictObject({
  type: z.literal('sign_in.succeeded'),
  user_id: Id,
  email: z.string(),
  method: z.enum(['magic_link', 'invite']),
});
export const AuditSignInFailed = z.strictObject({
  type: z.literal('sign_in.failed'),
  /** Failed attempts aggregated over one window (docs/audit.md, "Failed sign-ins"). */
  count: z.int().positive(),
  credential: z.literal('api_key'),
  window_start: Time,
  window_end: Time,
  first_at: Time,
  last_at: Time,
});
export const AuditTribunalRegraded = z.strictObject({
  type: z.literal('tribunal.regraded'),
  verdict_id: Id,
  reason: z.string(),
  before: z.strictObject({ status: z.enum(['complete', 'failed']) }),
  after: z.strictObject({ status: z.literal('queued') }),
});
export const AuditIncidentOpened = z.strictObject({
  type: z.literal('incident.opened'),
  incident_id: Id,
  run_id: Id,
  kind: IncidentKind,
  rule_key: z.string().nullable(),
});

const webhookEvent = <T extends string>(type: T) =>
  z.strictObject({ type: z.literal(type), webhook_id: Id, url: z.string() });
export const AuditWebhookCreated = webhookEvent('webhook.created');
export const AuditWebhookUpdated = webhookEvent('webhook.updated');
export const AuditWebhookDeleted = webhookEvent('webhook.deleted');
export const AuditWebhookSecretRotated = webhookEvent('webhook.secret_rotated');
export const AuditWebhookTested = webhookEvent('webhook.tested');
export const AuditWebhookDisabled = z.strictObject({
  type: z.literal('webhook.disabled'),
  webhook_id: Id,
  url: z.string(),
  reason: z.enum(['gone', 'failing', 'owner']),
});
export const AuditWebhookDeliveryRetried = z.strictObject({
  type: z.literal('webhook.delivery_retried'),
  webhook_id: Id,
  event_id: Id,
});

/** Every event schema by its component name in /openapi.json. */
export const AUDIT_EVENT_SCHEMAS = {
  AuditApiKeyCreated,
  AuditApiKeyRevoked,
  AuditApiKeyFirstUsed,
  AuditInviteCreated,
  AuditInviteAccepted,
  AuditInviteRevoked,
  AuditMemberRoleChanged,
  AuditMemberRemoved,
  AuditOrgShareIdentityChanged,
  AuditFlightSheetPublished,
  AuditShareLinkCreated,
  AuditSigningKeyRotated,
  AuditHistoryRollbackAccepted,
  AuditSignInSucceeded,
  AuditSignInFailed,
  AuditTribunalRegraded,
  AuditIncidentOpened,
  AuditWebhookCreated,
  AuditWebhookUpdated,
  AuditWebhookDeleted,
  AuditWebhookSecretRotated,
  AuditWebhookTested,
  AuditWebhookDisabled,
  AuditWebhookDeliveryRetried,
} as const;

type AuditEventSchema = (typeof AUDIT_EVENT_SCHEMAS)[keyof typeof AUDIT_EVENT_SCHEMAS];
const eventSchemas = Object.values(AUDIT_EVENT_SCHEMAS) as [
  AuditEventSchema,
  ...AuditEventSchema[],
];

export const AuditEvent = z.discriminatedUnion('type', eventSchemas);
/** The `type` of every event, for `?type=` and the `event_type` column. */
export const AuditEventType = z.enum(
  eventSchemas.map((schema) => schema.shape.type.value) as [
    AuditEvent['type'],
    ...AuditEvent['type'][],
  ],
);

/** The hashed payload: the chain fields every receipt has, then who did what. */
export const AuditReceiptPayload = z.strictObject({
  v: z.literal(1),
  type: z.literal('audit_receipt'),
  org_id: Id,
  org_seq: Count,
  parent_hash: Sha256Hex,
  minted_at: Time,
  actor: AuditActor,
  event: AuditEvent,
});

export const AuditReceipt = z.object({
  receipt_id: z.string(),
  org_seq: Count,
  parent_hash: Sha256Hex,
  receipt_sha256: Sha256Hex,
  created_at: Time,
  event_type: AuditEventType,
  payload: AuditReceiptPayload,
});

export const AuditList = z.object({ entries: z.array(AuditReceipt), next: NextCursor });

export type AuditActor = z.infer<typeof AuditActor>;
export type AuditEvent = z.infer<typeof AuditEvent>;
export type AuditEventType = z.infer<typeof AuditEventType>;
export type AuditReceiptPayload = z.infer<typeof AuditReceiptPayload>;
export type AuditReceipt = z.infer<typeof AuditReceipt>;
export type AuditList = z.infer<typeof AuditList>;
