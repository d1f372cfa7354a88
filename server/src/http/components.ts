import * as core from '@runledger/core';
import { zodToOpenAPIRegistry, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

type Definition = OpenAPIRegistry['definitions'][number];
import { z } from 'zod';

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
  LedgerEntry: core.LedgerEntry,
  LedgerList: core.LedgerList,
  LedgerVerifyError: core.LedgerVerifyError,
  LedgerVerifyResult: core.LedgerVerifyResult,
};

/** Every enumeration core exports becomes a named component, so clients and contract tests see SPEC's names. */
function coreEnums(): Record<string, z.ZodType> {
  const exports: Record<string, unknown> = core;
  return Object.fromEntries(
    Object.entries(exports).filter(
      (entry): entry is [string, z.ZodEnum] => entry[1] instanceof z.ZodEnum,
    ),
  );
}

let tagged = false;

/**
 * Names the schema instances themselves (not copies), so wherever core nests one (Role inside
 * Member) the document says `$ref: Role`. Done once per process: the instances are shared.
 */
function tagOnce(all: Record<string, z.ZodType>): void {
  if (tagged) return;
  tagged = true;
  for (const [name, schema] of Object.entries(all)) {
    zodToOpenAPIRegistry.add(schema, { _internal: { refId: name } });
  }
}

/**
 * The named schemas as generator definitions. (registry.register would need zod's prototype patched
 * before core's schemas were built; tagging the instances needs no patch.)
 */
export function componentDefinitions(): Definition[] {
  const all = { ...coreEnums(), ...NAMED };
  tagOnce(all);
  return Object.values(all).map((schema) => ({ type: 'schema' as const, schema }));
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
