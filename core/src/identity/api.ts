import type { Actor } from '../actor.js';
import type { Page, Paged } from '../paging.js';
import type { Role } from '../schemas/enums.js';
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
  OrgUpdateBody,
  Principal,
} from '../schemas/identity.js';

/** The result of a sign-in; the server signs its JWT from this. */
export interface SignIn {
  user: { id: string; email: string };
  org: { id: string; name: string };
  role: Role;
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
  /** Owner only; a change writes an `org.share_identity_changed` audit receipt in its transaction. */
  update(actor: Actor, input: OrgUpdateBody): Promise<Org>;
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
