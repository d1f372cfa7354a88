import { conflict, unauthenticated } from '../errors.js';
import { lockKeys } from '../ports/lock-keys.js';
import type {
  ApiKeyRecord,
  LinkRecord,
  MemberRecord,
  Repositories,
  UserRecord,
  WriteTransaction,
} from '../ports/storage.js';
import type { Role } from '../schemas/enums.js';
import type { AuthRequestResult, Principal } from '../schemas/identity.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { AuthUseCases, SignIn } from './api.js';
import { normalizeEmail } from './email.js';
import { addMs, nowIso } from '../time.js';
import { newId } from '../ids.js';
import { constantTimeEqual, hashSecret, newSecret, parseApiKey } from '../secrets/index.js';
import { recordAudit, recordSignInFailure } from '../audit-receipts/record.js';
import { sharedLookups } from '../shared-lookups.js';

const LAST_USED_RESOLUTION_MS = 60_000;

const MAX_TOKEN_LENGTH = 512;

export function authUseCases(deps: Deps): AuthUseCases {
  const { storage, clock, random, mailer, config } = deps;
  // Every signed-in request's role, read from storage each time (a demotion applies at once);
  // requests that arrive together share one read transaction (shared-lookups.ts).
  const memberOf = sharedLookups<{ orgId: string; userId: string }, MemberRecord | null>(
    storage,
    ({ orgId, userId }) => JSON.stringify([orgId, userId]),
    (tx, { orgId, userId }) => tx.memberships.get(orgId, userId),
  );

  /** A user's sign-in: the user (created if new), then their org, an invite's org, or a new org. */
  async function signInEmail(tx: WriteTransaction, email: string, at: Date): Promise<SignIn> {
    const now = at.toISOString();
    const user = await findOrCreateUser(tx, email, now);
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
  async function audited(
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

  async function recordInviteAccepted(
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

  /**
   * The first use of a key is audited once: under the audit chain lock the key is read again, so
   * of two first uses at once the second finds it used.
   */
  async function firstUse(tx: WriteTransaction, key: ApiKeyRecord, now: Date) {
    const keyId = key.key_id;
    await tx.lock(lockKeys.auditChain(key.org_id));
    const fresh = await tx.apiKeys.byId(keyId);
    if (!fresh || fresh.last_used_at !== null) return;
    await tx.apiKeys.touch(keyId, now.toISOString());
    await recordAudit(
      tx,
      key.org_id,
      { kind: 'api_key', id: keyId },
      { type: 'api_key.first_used', key_id: keyId, name: key.name, created_by: key.created_by },
      now,
    );
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
      // Sent once the transaction has ended, so a slow mail server never holds the storage transaction.
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
        const at = clock.now();
        const link = await tx.links.consume(hash, 'sign_in', at.toISOString());
        if (!link) throw unauthenticated('invalid or expired token');
        await tx.lock(lockKeys.user(link.email));
        return signInEmail(tx, link.email, at);
      });
    },

    async acceptInvite(token: string): Promise<SignIn> {
      const hash = tokenHashOf(token);
      return storage.write(async (tx) => {
        const at = clock.now();
        const now = at.toISOString();
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
        const signIn = membership
          ? await signInOf(tx, user, membership.org_id, membership.role)
          : await join(tx, user, invite.org_id, invite.role, now);
        await recordInviteAccepted(tx, invite, signIn, at);
        return audited(tx, signIn, 'invite', at);
      });
    },

    async resolveUser(userId: string, orgId: string): Promise<Actor> {
      const member = await memberOf({ orgId, userId });
      if (!member) throw unauthenticated();
      return { kind: 'user', userId, orgId, role: member.role, email: member.email };
    },

    async authenticateApiKey(plaintext: string): Promise<Actor> {
      const parsed = parseApiKey(plaintext);
      if (parsed === null) throw unauthenticated('invalid API key');
      const { key_id: keyId, secret } = parsed;
      const actor = await storage.write(async (tx): Promise<Actor | null> => {
        const key = await tx.apiKeys.byId(keyId);
        if (!key) return null;
        const now = clock.now();
        if (key.revoked_at !== null || !constantTimeEqual(hashSecret(secret), key.secret_hash)) {
          // A known key presented wrongly counts against its organization, aggregated per window
          // (docs/audit.md, "Failed sign-ins"); it is kept although the caller gets a 401.
          await recordSignInFailure(tx, key.org_id, now);
          return null;
        }
        if (key.last_used_at === null) {
          await firstUse(tx, key, now);
        } else if (now.getTime() - Date.parse(key.last_used_at) >= LAST_USED_RESOLUTION_MS) {
          // last_used_at is kept to the minute, so a burst of automation calls is not a burst of writes.
          await tx.apiKeys.touch(keyId, now.toISOString());
        }
        return { kind: 'api_key', keyId, orgId: key.org_id, role: 'member' };
      });
      if (actor === null) throw unauthenticated('invalid API key');
      return actor;
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
