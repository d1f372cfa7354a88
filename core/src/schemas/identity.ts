import { z } from 'zod';
import { Role, ShareIdentity } from './enums.js';

/** Wire schemas of sign-in, organizations, invites, API keys and projects (docs/design.md#errors-and-input and docs/design.md#actors-and-roles). */

const Timestamp = z.iso.datetime();
const Cursor = z.string().nullable();

/** E-mail addresses are compared case-insensitively: trimmed and lower-cased before validation. */
export const EmailAddress = z.string().trim().toLowerCase().pipe(z.email().max(320));
const Name = z.string().trim().min(1).max(200);

// Responses

/** `kind` tells a signed-in person from an API key; for a key, `id` is the key_id and `email` its creator's. */
export const Principal = z.object({
  id: z.string(),
  email: z.string(),
  org_id: z.string(),
  org_name: z.string(),
  role: Role,
  kind: z.enum(['user', 'api_key']),
});

/** `share_identity`: how the organization's shared receipts show people (docs/share.md, "Names"). */
export const Org = z.object({
  id: z.string(),
  name: z.string(),
  created_at: Timestamp,
  share_identity: ShareIdentity,
});

export const Member = z.object({
  user_id: z.string(),
  email: z.string(),
  role: Role,
  joined_at: Timestamp,
});
export const MemberList = z.object({ members: z.array(Member), next: Cursor });

export const Invite = z.object({
  id: z.string(),
  email: z.string(),
  role: Role,
  expires_at: Timestamp,
  created_at: Timestamp,
  accepted_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
});
export const InviteCreated = z.object({
  id: z.string(),
  email: z.string(),
  role: Role,
  expires_at: Timestamp,
  dev_link: z.string().optional(),
});
export const InviteList = z.object({ invites: z.array(Invite), next: Cursor });

export const ApiKey = z.object({
  key_id: z.string(),
  name: z.string(),
  prefix: z.string(),
  created_at: Timestamp,
  created_by: z.string(),
  last_used_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
});
export const ApiKeyCreated = z.object({
  key_id: z.string(),
  name: z.string(),
  prefix: z.string(),
  key: z.string(),
  created_at: Timestamp,
});
export const ApiKeyList = z.object({ keys: z.array(ApiKey), next: Cursor });

export const Project = z.object({
  id: z.string(),
  name: z.string(),
  created_at: Timestamp,
  created_by: z.string(),
});
export const ProjectList = z.object({ projects: z.array(Project), next: Cursor });

export const AuthRequestResult = z.object({
  ok: z.literal(true),
  sent: z.boolean(),
  dev_link: z.string().optional(),
});
export const AuthToken = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  user: Principal,
});

// Requests (strict: unknown keys are rejected)

export const AuthRequestBody = z.object({ email: EmailAddress }).strict();
export const AuthVerifyBody = z.object({ token: z.string().min(1).max(512) }).strict();
export const AcceptInviteBody = z.object({ token: z.string().min(1).max(512) }).strict();
export const InviteCreateBody = z.object({ email: EmailAddress, role: Role }).strict();
export const MemberRoleBody = z.object({ role: Role }).strict();
export const OrgUpdateBody = z.object({ share_identity: ShareIdentity }).strict();
export const ApiKeyCreateBody = z.object({ name: Name }).strict();
export const ProjectCreateBody = z.object({ name: Name }).strict();

export type EmailAddress = z.infer<typeof EmailAddress>;
export type Principal = z.infer<typeof Principal>;
export type Org = z.infer<typeof Org>;
export type Member = z.infer<typeof Member>;
export type MemberList = z.infer<typeof MemberList>;
export type Invite = z.infer<typeof Invite>;
export type InviteCreated = z.infer<typeof InviteCreated>;
export type InviteList = z.infer<typeof InviteList>;
export type ApiKey = z.infer<typeof ApiKey>;
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;
export type ApiKeyList = z.infer<typeof ApiKeyList>;
export type Project = z.infer<typeof Project>;
export type ProjectList = z.infer<typeof ProjectList>;
export type AuthRequestResult = z.infer<typeof AuthRequestResult>;
export type AuthToken = z.infer<typeof AuthToken>;
export type AuthRequestBody = z.infer<typeof AuthRequestBody>;
export type AuthVerifyBody = z.infer<typeof AuthVerifyBody>;
export type AcceptInviteBody = z.infer<typeof AcceptInviteBody>;
export type InviteCreateBody = z.infer<typeof InviteCreateBody>;
export type MemberRoleBody = z.infer<typeof MemberRoleBody>;
export type OrgUpdateBody = z.infer<typeof OrgUpdateBody>;
export type ApiKeyCreateBody = z.infer<typeof ApiKeyCreateBody>;
export type ProjectCreateBody = z.infer<typeof ProjectCreateBody>;
