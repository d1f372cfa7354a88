import * as core from '@runledger/core/schemas';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ErrorBody, namedDefinitions, type Definition } from '../http/components.js';
import type { ApiDescription } from '../http/openapi.js';
import { TRIBUNAL_NAMED } from './tribunal-components.js';

export const Health = z.object({ ok: z.literal(true) });
/** GET on a link only explains; the token is consumed by the POST (mail scanners prefetch GET links). */
export const LinkHelp = z.object({
  detail: z.string(),
  method: z.literal('POST'),
  path: z.string(),
  body: z.object({ token: z.string() }),
});

/** Wire schemas by their component name. A route may only answer with a schema named here. */
const NAMED: Record<string, z.ZodType> = {
  Error: ErrorBody,
  Health,
  LinkHelp,
  Principal: core.Principal,
  Org: core.Org,
  Member: core.Member,
  MemberList: core.MemberList,
  Invite: core.Invite,
  InviteCreated: core.InviteCreated,
  InviteList: core.InviteList,
  ApiKey: core.ApiKey,
  ApiKeyCreated: core.ApiKeyCreated,
  ApiKeyList: core.ApiKeyList,
  Project: core.Project,
  ProjectList: core.ProjectList,
  AuthRequestResult: core.AuthRequestResult,
  AuthToken: core.AuthToken,
  AuthRequestBody: core.AuthRequestBody,
  AuthVerifyBody: core.AuthVerifyBody,
  AcceptInviteBody: core.AcceptInviteBody,
  InviteCreateBody: core.InviteCreateBody,
  MemberRoleBody: core.MemberRoleBody,
  OrgUpdateBody: core.OrgUpdateBody,
  ApiKeyCreateBody: core.ApiKeyCreateBody,
  ProjectCreateBody: core.ProjectCreateBody,
  FlightSheet: core.FlightSheet,
  FlightSheetList: core.FlightSheetList,
  FlightSheetInput: core.FlightSheetInput,
  FlightSheetRule: core.FlightSheetRule,
  AutoRule: core.AutoRule,
  ChecklistRule: core.ChecklistRule,
  RuleCheck: core.RuleCheck,
  Run: core.Run,
  RunList: core.RunList,
  RunCreateBody: core.RunCreateBody,
  RunComposite: core.RunComposite,
  RunOwnership: core.RunOwnership,
  AgentProfile: core.AgentProfile,
  Evidence: core.Evidence,
  EvidenceIn: core.EvidenceIn,
  EvidenceList: core.EvidenceList,
  Submission: core.Submission,
  SubmissionIn: core.SubmissionIn,
  AuditResponse: core.AuditResponse,
  Check: core.Check,
  ChecksList: core.ChecksList,
  FlagsList: core.FlagsList,
  CheckGradeIn: core.CheckGradeIn,
  Verdict: core.Verdict,
  VerdictCounts: core.VerdictCounts,
  Approval: core.Approval,
  ApprovalIn: core.ApprovalIn,
  Receipt: core.Receipt,
  ReceiptsRecent: core.ReceiptsRecent,
  PublicReceipt: core.PublicReceipt,
  SharedReceipt: core.SharedReceipt,
  DsseEnvelope: core.DsseEnvelope,
  SigstoreBundle: core.SigstoreBundle,
  LedgerEntry: core.LedgerEntry,
  LedgerList: core.LedgerList,
  LedgerVerifyError: core.LedgerVerifyError,
  LedgerVerifyResult: core.LedgerVerifyResult,
  SignedCheckpoint: core.SignedCheckpoint,
  InclusionProof: core.InclusionProof,
  ConsistencyProof: core.ConsistencyProof,
  PublishedKey: core.PublishedKey,
  KeysDocument: core.KeysDocument,
  AuditActor: core.AuditActor,
  ...core.AUDIT_EVENT_SCHEMAS,
  AuditEvent: core.AuditEvent,
  AuditReceiptPayload: core.AuditReceiptPayload,
  AuditReceipt: core.AuditReceipt,
  AuditList: core.AuditList,
  ...TRIBUNAL_NAMED,
  Incident: core.Incident,
  IncidentIn: core.IncidentIn,
  IncidentList: core.IncidentList,
  Dataset: core.Dataset,
  DatasetStageBody: core.DatasetStageBody,
  PaymentEvent: core.PaymentEvent,
  PaymentReceived: core.PaymentReceived,
  ...core.WEBHOOK_EVENT_SCHEMAS,
  WebhookEvent: core.WebhookEvent,
  WebhookEndpoint: core.WebhookEndpoint,
  WebhookEndpointList: core.WebhookEndpointList,
  WebhookEndpointWithSecret: core.WebhookEndpointWithSecret,
  WebhookCreateBody: core.WebhookCreateBody,
  WebhookUpdateBody: core.WebhookUpdateBody,
  WebhookDelivery: core.WebhookDelivery,
  WebhookDeliveryList: core.WebhookDeliveryList,
  WebhookTestSent: core.WebhookTestSent,
};

/**
 * Every enumeration core exports gets its name, so clients and contract tests see SPEC's names; the
 * ones no main-API operation reaches (the router's) are left out of this document (openapi.ts).
 */
function coreEnums(): Record<string, z.ZodType> {
  const exports: Record<string, unknown> = core;
  return Object.fromEntries(
    Object.entries(exports).filter(
      (entry): entry is [string, z.ZodEnum] => entry[1] instanceof z.ZodEnum,
    ),
  );
}

/** The main API's named schemas. */
function componentDefinitions(): Definition[] {
  return namedDefinitions({ ...coreEnums(), ...NAMED });
}

function registerSecuritySchemes(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A user JWT from POST /auth/verify, or an API key (rlk_…) as the bearer token',
  });
  registry.registerComponent('securitySchemes', 'apiKeyHeader', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
  });
}

/** The main API's description in /openapi.json (the router API's is in router-api/components.ts). */
export const MAIN_API: ApiDescription = {
  title: 'runledger',
  version: '0.1.0',
  description:
    'Audits units of work against versioned rulebooks and proves the results with hash-chained receipts. ' +
    'Every non-2xx response is {detail}. See docs/http.md.',
  tags: {
    meta: 'Liveness of the service.',
    auth: 'Sign-in by e-mailed link, invitation acceptance, and who the caller is.',
    org: 'The organization, its members and its invitations.',
    'api-keys':
      'API keys, which act in the organization with the member role (owners manage them).',
    projects: 'Projects, which group runs.',
    'flight-sheets': 'Flight sheets: the versioned rulebooks runs are audited against.',
    runs: 'Runs, from creation in draft to their submission.',
    evidence: 'Evidence attached to a run: text items and uploaded files.',
    grading: 'The audit of a run: its checks, flags, grading of open checks and the final verdict.',
    decisions: 'The decision on a finalized run and the minting of its receipt.',
    incidents: 'Incidents filed against runs.',
    ledger: "The organization's hash-chained receipts: listing, NDJSON export and verification.",
    share: 'Public views of a receipt by its share link (no credentials), as JSON or PDF.',
    tribunal: 'Grading a submission by the tribunal, polling and re-grading its verdicts.',
    runner:
      'The tribunal runner: claims queued grading tasks and reports on them (X-Runner-Token).',
    internal: 'Calls from other services: dataset staging and the signed payment webhook.',
  },
  components: componentDefinitions,
  securitySchemes: registerSecuritySchemes,
};
