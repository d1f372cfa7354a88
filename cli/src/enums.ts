import type { components as Main } from './generated/main-api.js';
import type { components as Router } from './generated/router-api.js';

/**
 * The allowed values of every enum flag, checked locally (yargs `choices`) before any request. The
 * source of truth is the generated OpenAPI types: each list is the keys of a `Record<Enum, true>`, so
 * adding, removing or renaming a value on the server is a compile error here after
 * `npm run generate:client`, not a list that silently drifts.
 */
const valuesOf = <T extends string>(all: Record<T, true>): readonly T[] => Object.keys(all) as T[];

type MainSchemas = Main['schemas'];
type RouterSchemas = Router['schemas'];

export const RUN_STATES = valuesOf<MainSchemas['RunState']>({
  draft: true,
  audited: true,
  finalized: true,
  approved: true,
  rejected: true,
  escalated: true,
  receipted: true,
});

export const TEXT_EVIDENCE_KINDS = valuesOf<MainSchemas['EvidenceTextKind']>({
  note: true,
  text: true,
  url: true,
  log: true,
  json: true,
});

export const DECISIONS = valuesOf<MainSchemas['ApprovalDecision']>({
  approved: true,
  rejected: true,
  escalated: true,
});

export const SHARE_IDENTITIES = valuesOf<MainSchemas['ShareIdentity']>({
  email: true,
  id: true,
});

export const NODE_CLASSES = valuesOf<RouterSchemas['NodeClass']>({
  gpu_a_96gb: true,
  gpu_b_32gb: true,
});

export const JOB_TYPES = valuesOf<RouterSchemas['JobType']>({
  inference: true,
  fine_tune: true,
  eval: true,
  dataset_build: true,
  embedding: true,
  batch: true,
});

export const AUDIT_EVENT_TYPES = valuesOf<MainSchemas['AuditEventType']>({
  'api_key.created': true,
  'api_key.revoked': true,
  'api_key.first_used': true,
  'invite.created': true,
  'invite.accepted': true,
  'invite.revoked': true,
  'member.role_changed': true,
  'member.removed': true,
  'org.share_identity_changed': true,
  'flight_sheet.published': true,
  'share_link.created': true,
  'signing_key.rotated': true,
  'history.rollback_accepted': true,
  'sign_in.succeeded': true,
  'sign_in.failed': true,
  'tribunal.regraded': true,
  'incident.opened': true,
  'webhook.created': true,
  'webhook.updated': true,
  'webhook.deleted': true,
  'webhook.secret_rotated': true,
  'webhook.tested': true,
  'webhook.disabled': true,
  'webhook.delivery_retried': true,
});

export const WEBHOOK_EVENT_TYPES = valuesOf<MainSchemas['WebhookEventType']>({
  'run.created': true,
  'run.audited': true,
  'run.finalized': true,
  'run.decided': true,
  'receipt.minted': true,
  'incident.opened': true,
  'tribunal.verdict.completed': true,
  'audit.recorded': true,
  'webhook.test': true,
});
