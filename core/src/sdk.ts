import { authUseCases } from './identity/auth.js';
import { apiKeyUseCases } from './identity/api-keys.js';
import { orgUseCases } from './identity/orgs.js';
import { projectUseCases } from './projects/projects.js';
import type { Clock } from './ports/clock.js';
import type { Mailer } from './ports/mailer.js';
import type { Random } from './ports/random.js';
import type { Storage } from './ports/storage.js';
import type { Role } from './schemas/enums.js';
import type {
  ApiKey,
  ApiKeyCreated,
  ApiKeyCreateBody,
  AuthRequestResult,
  Invite,
  InviteCreateBody,
  InviteCreated,
  Member,
  Org,
  Principal,
  Project,
  ProjectCreateBody,
} from './schemas/identity.js';

/** Who is calling. An API key acts in its org with the member role (DESIGN.md section 4). */
export type Actor =
  | { kind: 'user'; userId: string; orgId: string; role: Role; email: string }
  | { kind: 'api_key'; keyId: string; orgId: string; role: 'member' };

/** A page request: `limit` defaults to 50 (at most 200); `after` is the opaque cursor from a previous `next`. */
export interface Page {
  limit?: number;
  after?: string;
}

export interface Paged<T> {
  items: T[];
  next: string | null;
}

/** The result of a sign-in; the server signs its JWT from this. */
export interface SignIn {
  user: { id: string; email: string };
  org: { id: string; name: string };
  role: Role;
}

export interface RunledgerConfig {
  /** Base of the links put into e-mails and dev_link, e.g. http://localhost:8080. */
  publicBaseUrl: string;
  /** In production a dev_link is never returned. */
  production: boolean;
  magicLinkTtlMinutes: number;
  inviteTtlHours: number;
  receiptPrefix: string;
}

export const defaultRunledgerConfig: RunledgerConfig = {
  publicBaseUrl: 'http://localhost:8080',
  production: false,
  magicLinkTtlMinutes: 10,
  inviteTtlHours: 168,
  receiptPrefix: 'rcpt',
};

export interface RunledgerPorts {
  storage: Storage;
  clock: Clock;
  random: Random;
  mailer: Mailer;
}

export interface AuthUseCases {
  /** Same answer for every well-formed e-mail; dev_link only outside production without a configured mailer. */
  requestLink(email: string): Promise<AuthRequestResult>;
  /** Consumes a sign-in token once; bad, used or expired → unauthenticated. */
  verifyLink(token: string): Promise<SignIn>;
  /** Consumes an invite token; a user already in another org → conflict. */
  acceptInvite(token: string): Promise<SignIn>;
  /** Reads the membership on every call, so role changes and removals apply at once. */
  resolveUser(userId: string, orgId: string): Promise<Actor>;
  /** Parses `rlk_<key_id>_<secret>`; unknown, wrong or revoked → unauthenticated. */
  authenticateApiKey(plaintext: string): Promise<Actor>;
  /** For an API key: id is the key_id, email the creator's, role member, kind api_key. */
  me(actor: Actor): Promise<Principal>;
}

export interface OrgUseCases {
  get(actor: Actor): Promise<Org>;
  listMembers(actor: Actor, page: Page): Promise<Paged<Member>>;
  createInvite(actor: Actor, input: InviteCreateBody): Promise<InviteCreated>;
  listInvites(actor: Actor, page: Page): Promise<Paged<Invite>>;
  revokeInvite(actor: Actor, inviteId: string): Promise<void>;
  updateMemberRole(actor: Actor, userId: string, role: Role): Promise<Member>;
  removeMember(actor: Actor, userId: string): Promise<void>;
}

export interface ApiKeyUseCases {
  list(actor: Actor, page: Page): Promise<Paged<ApiKey>>;
  create(actor: Actor, input: ApiKeyCreateBody): Promise<ApiKeyCreated>;
  revoke(actor: Actor, keyId: string): Promise<void>;
}

export interface ProjectUseCases {
  create(actor: Actor, input: ProjectCreateBody): Promise<Project>;
  list(actor: Actor, page: Page): Promise<Paged<Project>>;
  get(actor: Actor, projectId: string): Promise<Project>;
}

export interface Runledger {
  auth: AuthUseCases;
  orgs: OrgUseCases;
  apiKeys: ApiKeyUseCases;
  projects: ProjectUseCases;
}

/** The SDK: every use case, each in one storage transaction, over the ports given. */
export function createRunledger(ports: RunledgerPorts, config: RunledgerConfig): Runledger {
  const deps = { ...ports, config };
  return {
    auth: authUseCases(deps),
    orgs: orgUseCases(deps),
    apiKeys: apiKeyUseCases(deps),
    projects: projectUseCases(deps),
  };
}

export type Deps = RunledgerPorts & { config: RunledgerConfig };
