import { conflict, unauthenticated } from '../errors.js';
import { lockKeys } from '../ports/lock-keys.js';
import type { Repositories, UserRecord } from '../ports/storage.js';
import type { Role } from '../schemas/enums.js';
import type { AuthRequestResult, Principal } from '../schemas/identity.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { AuthUseCases, SignIn } from './api.js';
import { normalizeEmail } from './email.js';
import { addMs, nowIso } from '../time.js';
import { newId } from '../ids.js';
import { constantTimeEqual, hashSecret, newSecret, parseApiKey } from '../secrets/index.js';

const LAST_USED_RESOLUTION_MS = 60_000;

const MAX_TOKEN_LENGTH = 512;

export function authUseCases(deps: Deps): AuthUseCases {
  const { storage, clock, random, mailer, config } = deps;

  /** A user's sign-in: the user (created if new), then their org, an invite's org, or a new org. */
  async function signInEmail(tx: Repositories, email: string, now: string): Promise<SignIn> {
    const user = await findOrCreateUser(tx, email, now);
    const membership = await tx.memberships.byUser(user.id);
    if (membership) return signInOf(tx, user, membership.org_id, membership.role);

    const invite = await tx.links.pendingInviteFor(email, now);
    if (invite && invite.org_id && invite.role && (await tx.links.markUsed(invite.id, now))) {
      return join(tx, user, invite.org_id, invite.role, now);
    }
    const org = { id: newId('org', random), name: `${email}'s organization`, created_at: now };
    await tx.orgs.insert(org);
    return join(tx, user, org.id, 'owner', now);
  }

  async function findOrCreateUser(tx: Repositories, email: string, now: string) {
    const existing = await tx.users.byEmail(email);
    if (existing) return existing;
    const user: UserRecord = { id: newId('usr', random), email, created_at: now };
    await tx.users.insert(user);
    return user;
  }

  async function join(tx: Repositories, user: UserRecord, orgId: string, role: Role, now: string) {
    await tx.memberships.insert({ org_id: orgId, user_id: user.id, role, created_at: now });
    return signInOf(tx, user, orgId, role);
  }

  async function signInOf(tx: Repositories, user: UserRecord, orgId: string, role: Role) {
    const org = await tx.orgs.byId(orgId);
    if (!org) throw unauthenticated();
    return { user: { id: user.id, email: user.email }, org: { id: org.id, name: org.name }, role };
  }

  function tokenHashOf(token: string): string {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
      throw unauthenticated('invalid or expired token');
    }
    return hashSecret(token);
  }

  return {
    async requestLink(rawEmail: string): Promise<AuthRequestResult> {
      const email = normalizeEmail(rawEmail);
      const token = newSecret(random);
      const now = nowIso(clock);
      await storage.write((tx) =>
        tx.links.insert({
          id: newId('lnk', random),
          purpose: 'sign_in',
          token_hash: hashSecret(token),
          email,
          org_id: null,
          role: null,
          created_by: null,
          created_at: now,
          expires_at: addMs(now, config.magicLinkTtlMinutes * 60_000),
          used_at: null,
          revoked_at: null,
        }),
      );
      const link = `${config.publicBaseUrl}/auth/verify?token=${token}`;
      if (!config.production && !mailer.configured) {
        return { ok: true, sent: false, dev_link: link };
      }
      // Sent after the commit, so a slow mail server never holds the storage transaction.
      await mailer.send({
        to: email,
        subject: 'Your runledger sign-in link',
        text: `Sign in to runledger with this link (valid ${config.magicLinkTtlMinutes} minutes, once):\n\n${link}\n`,
      });
      return { ok: true, sent: mailer.configured };
    },

    async verifyLink(token: string): Promise<SignIn> {
      const hash = tokenHashOf(token);
      return storage.write(async (tx) => {
        const now = nowIso(clock);
        const link = await tx.links.consume(hash, 'sign_in', now);
        if (!link) throw unauthenticated('invalid or expired token');
        await tx.lock(lockKeys.user(link.email));
        return signInEmail(tx, link.email, now);
      });
    },

    async acceptInvite(token: string): Promise<SignIn> {
      const hash = tokenHashOf(token);
      return storage.write(async (tx) => {
        const now = nowIso(clock);
        const invite = await tx.links.consume(hash, 'invite', now);
        if (!invite || !invite.org_id || !invite.role) {
          throw unauthenticated('invalid or expired invite');
        }
        await tx.lock(lockKeys.user(invite.email));
        const user = await findOrCreateUser(tx, invite.email, now);
        const membership = await tx.memberships.byUser(user.id);
        if (membership && membership.org_id !== invite.org_id) {
          // The throw rolls the consumption back: the invite stays usable.
          throw conflict('this user already belongs to another organization');
        }
        if (membership) return signInOf(tx, user, membership.org_id, membership.role);
        return join(tx, user, invite.org_id, invite.role, now);
      });
    },

    async resolveUser(userId: string, orgId: string): Promise<Actor> {
      return storage.read(async (tx) => {
        const member = await tx.memberships.get(orgId, userId);
        if (!member) throw unauthenticated();
        return { kind: 'user', userId, orgId, role: member.role, email: member.email };
      });
    },

    async authenticateApiKey(plaintext: string): Promise<Actor> {
      const parsed = parseApiKey(plaintext);
      if (parsed === null) throw unauthenticated('invalid API key');
      const { key_id: keyId, secret } = parsed;
      return storage.write(async (tx) => {
        const key = await tx.apiKeys.byId(keyId);
        if (!key || key.revoked_at !== null) throw unauthenticated('invalid API key');
        if (!constantTimeEqual(hashSecret(secret), key.secret_hash)) {
          throw unauthenticated('invalid API key');
        }
        // last_used_at is kept to the minute, so a burst of automation calls is not a burst of writes.
        const now = clock.now();
        const last = key.last_used_at === null ? null : Date.parse(key.last_used_at);
        if (last === null || now.getTime() - last >= LAST_USED_RESOLUTION_MS) {
          await tx.apiKeys.touch(keyId, now.toISOString());
        }
        return { kind: 'api_key', keyId, orgId: key.org_id, role: 'member' };
      });
    },

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
