import { unauthenticated } from '../errors.js';
import type { MemberRecord } from '../ports/storage.js';
import type { Principal } from '../schemas/identity.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { AuthUseCases } from './api.js';
import { sharedLookups } from '../shared-lookups.js';
import { authenticateApiKey } from './api-key-auth.js';
import { signInLinkUseCases } from './sign-in-links.js';

export function authUseCases(deps: Deps): AuthUseCases {
  const { storage } = deps;
  // Every signed-in request's role, read from storage each time (a demotion applies at once);
  // requests that arrive together share one read transaction (shared-lookups.ts).
  const memberOf = sharedLookups<{ orgId: string; userId: string }, MemberRecord | null>(
    storage,
    ({ orgId, userId }) => JSON.stringify([orgId, userId]),
    (tx, { orgId, userId }) => tx.memberships.get(orgId, userId),
  );

  return {
    ...signInLinkUseCases(deps),

    async resolveUser(userId: string, orgId: string): Promise<Actor> {
      const member = await memberOf({ orgId, userId });
      if (!member) throw unauthenticated();
      return { kind: 'user', userId, orgId, role: member.role, email: member.email };
    },

    authenticateApiKey: (plaintext) => authenticateApiKey(deps, plaintext),

    async me(actor: Actor): Promise<Principal> {
      return storage.read(async (tx) => {
        const org = await tx.orgs.byId(actor.orgId);
        if (!org) throw unauthenticated();
        if (actor.kind === 'user') {
          const base = { id: actor.userId, email: actor.email, org_id: org.id, org_name: org.name };
          return { ...base, role: actor.role, kind: 'user' };
        }
        const key = await tx.apiKeys.get(actor.orgId, actor.keyId);
        const creator = key ? await tx.users.byId(key.created_by) : null;
        return {
          id: actor.keyId,
          email: creator?.email ?? '',
          org_id: org.id,
          org_name: org.name,
          role: 'member',
          kind: 'api_key',
        };
      });
    },
  };
}
