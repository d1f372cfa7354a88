import { conflict, unauthenticated } from '../errors.js';
import { lockKeys } from '../ports/lock-keys.js';
import type { AuthRequestResult } from '../schemas/identity.js';
import type { Deps } from '../deps.js';
import type { AuthUseCases, SignIn } from './api.js';
import { normalizeEmail } from './email.js';
import { addMs, nowIso } from '../time.js';
import { newId } from '../ids.js';
import { hashSecret, newSecret } from '../secrets/index.js';
import {
  audited,
  findOrCreateUser,
  join,
  recordInviteAccepted,
  signInEmail,
  signInOf,
} from './sign-in.js';

const MAX_TOKEN_LENGTH = 512;

/** Sign-in by e-mailed link and by invite: the link is requested, then exchanged once. */
export function signInLinkUseCases(
  deps: Deps,
): Pick<AuthUseCases, 'requestLink' | 'verifyLink' | 'acceptInvite'> {
  const { storage, clock, random, mailer, config } = deps;
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
        return signInEmail(tx, random, link.email, at);
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
        const user = await findOrCreateUser(tx, random, invite.email, now);
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
  };
}

function tokenHashOf(token: string): string {
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
    throw unauthenticated('invalid or expired token');
  }
  return hashSecret(token);
}
