import { conflict, notFound } from '../errors.js';
import type { LinkRecord } from '../ports/storage.js';
import type { Invite, InviteCreated, InviteCreateBody } from '../schemas/identity.js';
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

/** An owner's invites: created (and mailed), listed, revoked. */
export function inviteUseCases(
  deps: Deps,
): Pick<OrgUseCases, 'createInvite' | 'listInvites' | 'revokeInvite'> {
  const { storage, clock } = deps;
  return {
    createInvite: (actor, input) => createInvite(deps, actor, input),

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
  };
}

/** Stores the invite and its audit receipt, then mails the link (or returns it in development). */
async function createInvite(
  deps: Deps,
  actor: Actor,
  input: InviteCreateBody,
): Promise<InviteCreated> {
  const { storage, clock, random, mailer, config } = deps;
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
}
