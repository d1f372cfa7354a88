import { RunledgerError } from '@runledger/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWorld, signIn, tokenOf, type World } from './setup.js';

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: unknown) => (e instanceof RunledgerError ? e.code : String(e)),
  );

describe('sign-in by magic link', () => {
  let w: World;
  beforeEach(async () => {
    w = await openWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('answers every well-formed e-mail alike, with a dev_link in development without a mailer', async () => {
    await signIn(w.rl, 'known@example.com');
    const known = await w.rl.auth.requestLink('known@example.com');
    const unknown = await w.rl.auth.requestLink('unknown@example.com');
    for (const answer of [known, unknown]) {
      expect(Object.keys(answer).sort()).toEqual(['dev_link', 'ok', 'sent']);
      expect(answer).toMatchObject({ ok: true, sent: false });
      expect(answer.dev_link).toMatch(/^http:\/\/runledger\.test\/auth\/verify\?token=[\w-]{43}$/);
    }
    expect(w.mailer.sent).toEqual([]);
  });

  it('rejects a malformed e-mail as invalid input', async () => {
    expect(await code(w.rl.auth.requestLink('not-an-email'))).toBe('invalid_input');
  });

  it('creates a user and an organization owned by them on the first sign-in', async () => {
    const answer = await w.rl.auth.requestLink('  Alice@Example.COM ');
    const result = await w.rl.auth.verifyLink(tokenOf(answer.dev_link));
    expect(result.user.email).toBe('alice@example.com');
    expect(result.user.id).toMatch(/^usr_[a-z2-7]{26}$/);
    expect(result.org.id).toMatch(/^org_[a-z2-7]{26}$/);
    expect(result.role).toBe('owner');

    const again = await w.rl.auth.requestLink('ALICE@example.com');
    const second = await w.rl.auth.verifyLink(tokenOf(again.dev_link));
    expect(second).toEqual(result);
  });

  it('accepts a link token only once', async () => {
    const token = tokenOf((await w.rl.auth.requestLink('a@example.com')).dev_link);
    await w.rl.auth.verifyLink(token);
    expect(await code(w.rl.auth.verifyLink(token))).toBe('unauthenticated');
  });

  it('lets only one of concurrent verifications of the same token succeed', async () => {
    const token = tokenOf((await w.rl.auth.requestLink('a@example.com')).dev_link);
    const results = await Promise.all([1, 2, 3].map(() => code(w.rl.auth.verifyLink(token))));
    expect(results.sort()).toEqual(['resolved', 'unauthenticated', 'unauthenticated']);
  });

  it('rejects a link after its lifetime and accepts it just before', async () => {
    const late = tokenOf((await w.rl.auth.requestLink('a@example.com')).dev_link);
    const inTime = tokenOf((await w.rl.auth.requestLink('a@example.com')).dev_link);
    w.clock.advance(10 * 60_000 - 1);
    await expect(w.rl.auth.verifyLink(inTime)).resolves.toBeDefined();
    w.clock.advance(1);
    expect(await code(w.rl.auth.verifyLink(late))).toBe('unauthenticated');
  });

  it('rejects unknown, empty and oversized tokens', async () => {
    expect(await code(w.rl.auth.verifyLink('x'.repeat(43)))).toBe('unauthenticated');
    expect(await code(w.rl.auth.verifyLink(''))).toBe('unauthenticated');
    expect(await code(w.rl.auth.verifyLink('x'.repeat(10_000)))).toBe('unauthenticated');
  });

  it('does not accept an invite token as a sign-in token', async () => {
    const owner = await signIn(w.rl, 'owner@example.com');
    const invite = await w.rl.orgs.createInvite(owner, { email: 'b@example.com', role: 'member' });
    expect(await code(w.rl.auth.verifyLink(tokenOf(invite.dev_link)))).toBe('unauthenticated');
  });

  it('reads the role from storage each time, so changes and removals apply at once', async () => {
    const owner = await signIn(w.rl, 'owner@example.com');
    const invite = await w.rl.orgs.createInvite(owner, { email: 'm@example.com', role: 'member' });
    const joined = await w.rl.auth.acceptInvite(tokenOf(invite.dev_link));
    await w.rl.orgs.updateMemberRole(owner, joined.user.id, 'owner');
    expect((await w.rl.auth.resolveUser(joined.user.id, joined.org.id)).role).toBe('owner');
    await w.rl.orgs.removeMember(owner, joined.user.id);
    expect(await code(w.rl.auth.resolveUser(joined.user.id, joined.org.id))).toBe(
      'unauthenticated',
    );
  });

  it('describes a signed-in user with /auth/me', async () => {
    const actor = await signIn(w.rl, 'me@example.com');
    const me = await w.rl.auth.me(actor);
    expect(me).toEqual({
      id: actor.kind === 'user' ? actor.userId : '',
      email: 'me@example.com',
      org_id: actor.orgId,
      org_name: "me@example.com's organization",
      role: 'owner',
      kind: 'user',
    });
  });
});

describe('sign-in with a configured mailer or in production', () => {
  it('mails the link and returns no dev_link when a mailer is configured', async () => {
    const w = await openWorld({ mailerConfigured: true });
    try {
      const answer = await w.rl.auth.requestLink('a@example.com');
      expect(answer).toEqual({ ok: true, sent: true });
      expect(w.mailer.sent).toHaveLength(1);
      const mail = w.mailer.sent[0];
      expect(mail?.to).toBe('a@example.com');
      const link = /http:\/\/runledger\.test\/auth\/verify\?token=[\w-]+/.exec(mail?.text ?? '');
      const result = await w.rl.auth.verifyLink(tokenOf(link?.[0]));
      expect(result.user.email).toBe('a@example.com');
    } finally {
      await w.close();
    }
  });

  it('never returns a dev_link in production, even without a mailer', async () => {
    const w = await openWorld({ production: true });
    try {
      expect(await w.rl.auth.requestLink('a@example.com')).toEqual({ ok: true, sent: false });
      const owner = await (async () => {
        const text = w.mailer.sent[0]?.text ?? '';
        const token = /token=([\w-]+)/.exec(text)?.[1] ?? '';
        const r = await w.rl.auth.verifyLink(token);
        return w.rl.auth.resolveUser(r.user.id, r.org.id);
      })();
      const invite = await w.rl.orgs.createInvite(owner, {
        email: 'b@example.com',
        role: 'member',
      });
      expect(invite.dev_link).toBeUndefined();
      expect(w.mailer.sent[1]?.text).toMatch(/accept-invite\?token=/);
    } finally {
      await w.close();
    }
  });
});
