import { conflict, forbidden, notFound, unauthenticated } from '../errors.js';
import { lockKeys } from '../ports/lock-keys.js';
import type { LinkRecord, MemberRecord, OrgRecord, WriteTransaction } from '../ports/storage.js';
import type { Role } from '../schemas/enums.js';
import type { Invite, InviteCreated, InviteCreateBody, Member, Org } from '../schemas/identity.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { OrgUseCases } from './api.js';
import type { Page } from '../paging.js';
import { normalizeEmail } from './email.js';
import { requireOwner } from '../actor.js';
import { addMs } from '../time.js';
import { newId } from '../ids.js';
import { pageQuery, toPaged } from '../paging.js';
import { hashSecret, newSecret } from '../secrets/index.js';
import { auditActor, recordAudit } from '../audit-receipts/record.js';

export function toMember(m: MemberRecord): Member {
  return { user_id: m.user_id, email: m.email, role: m.role, joined_at: m.created_at };
}

export function toOrg(org: OrgRecord): Org {
  return {
    id: org.id,
    name: org.name,
    created_at: org.created_at,
    share_identity: org.share_identity,
  };
}

export function toInvite(link: LinkRecord): Invite {
  return {
    id: link.id,
    email: link.email,
    role: link.role ?? 'member',
    expires_at: link.expires_at,
    created_at: link.created_at,
    accepted_at: link.used_at,
    revoked_at: link.revoked_at,
  };
}

export function orgUseCases(deps: Deps): OrgUseCases {
  const { storage, clock, random, mailer, config } = deps;

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

    async listMembers(actor: Actor, page: Page) {
      const { query, limit } = pageQuery(page);
      const rows = await storage.read((tx) => tx.memberships.list(actor.orgId, query));
      return toPaged(rows, limit, (m) => ({ created_at: m.created_at, id: m.user_id }), toMember);
    },

    async createInvite(actor: Actor, input: InviteCreateBody): Promise<InviteCreated> {
      const owner = requireOwner(actor);
      const email = normalizeEmail(input.email);
      const token = newSecret(random);
      const link = await storage.write(async (tx) => {
        const user = await tx.users.byEmail(email);
        const membership = user ? await tx.memberships.byUser(user.id) : null;
        if (membership?.org_id === owner.orgId) throw conflict('already a member');
        const at = clock.now();
        const now = at.toISOString();
        const invite: LinkRecord = {
          id: newId('inv', random),
          purpose: 'invite',
          token_hash: hashSecret(token),
          email,
          org_id: owner.orgId,
          role: input.role,
          created_by: owner.userId,
          created_at: now,
          expires_at: addMs(now, config.inviteTtlHours * 3_600_000),
          used_at: null,
          revoked_at: null,
        };
        await tx.links.insert(invite);
        await recordAudit(
          tx,
          owner.orgId,
          auditActor(owner),
          {
            type: 'invite.created',
            invite_id: invite.id,
            email,
            role: input.role,
            expires_at: invite.expires_at,
          },
          at,
        );
        return invite;
      });
      const created: InviteCreated = {
        id: link.id,
        email: link.email,
        role: input.role,
        expires_at: link.expires_at,
      };
      const url = `${config.publicBaseUrl}/auth/accept-invite?token=${token}`;
      if (!config.production && !mailer.configured) return { ...created, dev_link: url };
      // Mailed once the transaction has ended, so a slow mail server never holds the storage transaction.
      await mailer.send({
        to: email,
        subject: 'You are invited to a runledger organization',
        text: `${owner.email} invited you to their runledger organization as ${input.role}.\n\nAccept: ${url}\n`,
      });
      return created;
    },

    async listInvites(actor: Actor, page: Page) {
      const owner = requireOwner(actor);
      const { query, limit } = pageQuery(page);
      const rows = await storage.read((tx) => tx.links.listInvites(owner.orgId, query));
      return toPaged(rows, limit, (l) => ({ created_at: l.created_at, id: l.id }), toInvite);
    },

    async revokeInvite(actor: Actor, inviteId: string) {
      const owner = requireOwner(actor);
      await storage.write(async (tx) => {
        const invite = await tx.links.getInvite(owner.orgId, inviteId);
        if (!invite) throw notFound('invite');
        if (invite.used_at !== null) throw conflict('the invite was already accepted');
        const now = clock.now();
        // Revoking twice is harmless: the second call changes nothing and writes no receipt.
        if (!(await tx.links.revokeInvite(owner.orgId, inviteId, now.toISOString()))) return;
        await recordAudit(
          tx,
          owner.orgId,
          auditActor(owner),
          {
            type: 'invite.revoked',
            invite_id: invite.id,
            email: invite.email,
            role: invite.role ?? 'member',
          },
          now,
        );
      });
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
async function lockOwners(tx: WriteTransaction, owner: { orgId: string; userId: string }) {
  await tx.lock(lockKeys.owners(owner.orgId));
  if ((await tx.memberships.get(owner.orgId, owner.userId))?.role !== 'owner') {
    throw forbidden('only an organization owner may do this');
  }
}
