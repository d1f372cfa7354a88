import * as core from '@runledger/core/schemas';
import {
  getRefId,
  zodToOpenAPIRegistry,
  type OpenAPIRegistry,
} from '@asteasolutions/zod-to-openapi';

type Definition = OpenAPIRegistry['definitions'][number];
import { z } from 'zod';
import { TRIBUNAL_NAMED } from '../main-api/tribunal-components.js';

/** The body of every non-2xx response. */
export const ErrorBody = z.object({ detail: z.string() });
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
};

/** Every enumeration core exports becomes a named component, so clients and contract tests see SPEC's names. */
export function coreEnums(): Record<string, z.ZodType> {
  const exports: Record<string, unknown> = core;
  return Object.fromEntries(
    Object.entries(exports).filter(
      (entry): entry is [string, z.ZodEnum] => entry[1] instanceof z.ZodEnum,
    ),
  );
}

/**
 * Names the schema instances themselves (not copies), so wherever core nests one (Role inside
 * Member) the document says `$ref: Role`, and returns them as generator definitions. A schema keeps
 * the first name it gets: the instances are shared by every API description in the process.
 * (registry.register would need zod's prototype patched before core's schemas were built; tagging
 * the instances needs no patch.)
 */
export function namedDefinitions(all: Record<string, z.ZodType>): Definition[] {
  for (const [name, schema] of Object.entries(all)) {
    if (getRefId(schema) === undefined) {
      zodToOpenAPIRegistry.add(schema, { _internal: { refId: name } });
    }
  }
  return Object.values(all).map((schema) => ({ type: 'schema' as const, schema }));
}

/** The main API's named schemas. */
export function componentDefinitions(): Definition[] {
  return namedDefinitions({ ...coreEnums(), ...NAMED });
}

export function registerSecuritySchemes(registry: OpenAPIRegistry): void {
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
