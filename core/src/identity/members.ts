import { conflict, forbidden, notFound } from '../errors.js';
import { lockKeys } from '../ports/lock-keys.js';
import type { MemberRecord, WriteTransaction } from '../ports/storage.js';
import type { Role } from '../schemas/enums.js';
import type { Member } from '../schemas/identity.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { OrgUseCases } from './api.js';
import type { Page } from '../paging.js';
import { requireOwner } from '../actor.js';
import { pageQuery, toPaged } from '../paging.js';
import { auditActor, recordAudit } from '../audit-receipts/record.js';

export function toMember(m: MemberRecord): Member {
  return { user_id: m.user_id, email: m.email, role: m.role, joined_at: m.created_at };
}

/** An organization's members: listed, their role changed, removed; never its last owner. */
export function memberUseCases(
  deps: Deps,
): Pick<OrgUseCases, 'listMembers' | 'updateMemberRole' | 'removeMember'> {
  const { storage, clock } = deps;
  return {
    async listMembers(actor: Actor, page: Page) {
      const { query, limit } = pageQuery(page);
      const rows = await storage.read((tx) => tx.memberships.list(actor.orgId, query));
      return toPaged(rows, limit, (m) => ({ created_at: m.created_at, id: m.user_id }), toMember);
    },

    async updateMemberRole(actor: Actor, userId: string, role: Role) {
      const owner = requireOwner(actor);
      return storage.write(async (tx) => {
        await lockOwners(tx, owner);
        const member = await tx.memberships.get(owner.orgId, userId);
        if (!member) throw notFound('member');
        if (member.role === 'owner' && role !== 'owner') {
          // Under the owners lock, so the count cannot change before the update.
          if ((await tx.memberships.countOwners(owner.orgId)) <= 1) {
            throw conflict('the last owner cannot be demoted');
          }
        }
        await tx.memberships.updateRole(owner.orgId, userId, role);
        // Setting the role a member already has changes nothing and writes no receipt.
        if (member.role !== role) {
          await recordAudit(
            tx,
            owner.orgId,
            auditActor(owner),
            {
              type: 'member.role_changed',
              user_id: userId,
              email: member.email,
              before: { role: member.role },
              after: { role },
            },
            clock.now(),
          );
        }
        return toMember({ ...member, role });
      });
    },

    async removeMember(actor: Actor, userId: string) {
      const owner = requireOwner(actor);
      await storage.write(async (tx) => {
        await lockOwners(tx, owner);
        const member = await tx.memberships.get(owner.orgId, userId);
        if (!member) throw notFound('member');
        if (member.role === 'owner' && (await tx.memberships.countOwners(owner.orgId)) <= 1) {
          throw conflict('the last owner cannot be removed');
        }
        await tx.memberships.remove(owner.orgId, userId);
        await recordAudit(
          tx,
          owner.orgId,
          auditActor(owner),
          {
            type: 'member.removed',
            user_id: userId,
            email: member.email,
            before: { role: member.role },
          },
          clock.now(),
        );
      });
    },
  };
}

/**
 * Takes the org's owners lock, then checks that the acting owner still is one: two owners demoting
 * each other at once run one after the other, and the second, demoted meanwhile, is refused.
 */
export async function lockOwners(tx: WriteTransaction, owner: { orgId: string; userId: string }) {
  await tx.lock(lockKeys.owners(owner.orgId));
  if ((await tx.memberships.get(owner.orgId, owner.userId))?.role !== 'owner') {
    throw forbidden('only an organization owner may do this');
  }
}
