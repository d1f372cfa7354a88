import { unauthenticated } from '../errors.js';
import type { OrgRecord } from '../ports/storage.js';
import type { Org } from '../schemas/identity.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { OrgUseCases } from './api.js';
import { requireOwner } from '../actor.js';
import { auditActor, recordAudit } from '../audit-receipts/record.js';
import { inviteUseCases } from './invites.js';
import { lockOwners, memberUseCases } from './members.js';

export function toOrg(org: OrgRecord): Org {
  return {
    id: org.id,
    name: org.name,
    created_at: org.created_at,
    share_identity: org.share_identity,
  };
}

export function orgUseCases(deps: Deps): OrgUseCases {
  const { storage, clock } = deps;

  return {
    async get(actor: Actor) {
      return storage.read(async (tx) => {
        const org = await tx.orgs.byId(actor.orgId);
        if (!org) throw unauthenticated();
        return toOrg(org);
      });
    },

    async update(actor: Actor, input) {
      const owner = requireOwner(actor);
      return storage.write(async (tx) => {
        await lockOwners(tx, owner);
        const org = await tx.orgs.byId(owner.orgId);
        if (!org) throw unauthenticated();
        // Setting the value the organization already has changes nothing and writes no receipt.
        if (org.share_identity === input.share_identity) return toOrg(org);
        await tx.orgs.setShareIdentity(owner.orgId, input.share_identity);
        await recordAudit(
          tx,
          owner.orgId,
          auditActor(owner),
          {
            type: 'org.share_identity_changed',
            before: { share_identity: org.share_identity },
            after: { share_identity: input.share_identity },
          },
          clock.now(),
        );
        return toOrg({ ...org, share_identity: input.share_identity });
      });
    },

    ...memberUseCases(deps),
    ...inviteUseCases(deps),
  };
}
