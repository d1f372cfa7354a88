import { unauthenticated } from '../errors.js';
import type { LinkRecord, Repositories, UserRecord, WriteTransaction } from '../ports/storage.js';
import type { Random } from '../ports/random.js';
import type { Role } from '../schemas/enums.js';
import type { SignIn } from './api.js';
import { newId } from '../ids.js';
import { recordAudit } from '../audit-receipts/record.js';

/** How a sign-in finds or makes its user, membership and organization, and audits itself. */

/** A user's sign-in: the user (created if new), then their org, an invite's org, or a new org. */
export async function signInEmail(
  tx: WriteTransaction,
  random: Random,
  email: string,
  at: Date,
): Promise<SignIn> {
  const now = at.toISOString();
  const user = await findOrCreateUser(tx, random, email, now);
  const membership = await tx.memberships.byUser(user.id);
  if (membership) {
    return audited(
      tx,
      await signInOf(tx, user, membership.org_id, membership.role),
      'magic_link',
      at,
    );
  }
  const invite = await tx.links.pendingInviteFor(email, now);
  if (invite && invite.org_id && invite.role && (await tx.links.markUsed(invite.id, now))) {
    const signIn = await join(tx, user, invite.org_id, invite.role, now);
    await recordInviteAccepted(tx, invite, signIn, at);
    return audited(tx, signIn, 'magic_link', at);
  }
  const org = { id: newId('org', random), name: `${email}'s organization`, created_at: now };
  await tx.orgs.insert(org);
  // The new organization's first audit receipt is its owner's first sign-in.
  return audited(tx, await join(tx, user, org.id, 'owner', now), 'magic_link', at);
}

/** Records a successful sign-in in the org's audit chain, in the sign-in's transaction. */
export async function audited(
  tx: WriteTransaction,
  signIn: SignIn,
  method: 'magic_link' | 'invite',
  at: Date,
): Promise<SignIn> {
  await recordAudit(
    tx,
    signIn.org.id,
    { kind: 'user', id: signIn.user.id },
    { type: 'sign_in.succeeded', user_id: signIn.user.id, email: signIn.user.email, method },
    at,
  );
  return signIn;
}

export async function recordInviteAccepted(
  tx: WriteTransaction,
  invite: LinkRecord,
  signIn: SignIn,
  at: Date,
) {
  await recordAudit(
    tx,
    signIn.org.id,
    { kind: 'user', id: signIn.user.id },
    {
      type: 'invite.accepted',
      invite_id: invite.id,
      email: invite.email,
      role: invite.role ?? 'member',
      user_id: signIn.user.id,
    },
    at,
  );
}

export async function findOrCreateUser(
  tx: Repositories,
  random: Random,
  email: string,
  now: string,
) {
  const existing = await tx.users.byEmail(email);
  if (existing) return existing;
  const user: UserRecord = { id: newId('usr', random), email, created_at: now };
  await tx.users.insert(user);
  return user;
}

export async function join(
  tx: Repositories,
  user: UserRecord,
  orgId: string,
  role: Role,
  now: string,
) {
  await tx.memberships.insert({ org_id: orgId, user_id: user.id, role, created_at: now });
  return signInOf(tx, user, orgId, role);
}

export async function signInOf(tx: Repositories, user: UserRecord, orgId: string, role: Role) {
  const org = await tx.orgs.byId(orgId);
  if (!org) throw unauthenticated();
  return { user: { id: user.id, email: user.email }, org: { id: org.id, name: org.name }, role };
}
