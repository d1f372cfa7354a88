import { RunledgerError, type Actor } from '@runledger/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWorld, signIn, tokenOf, type World } from './setup.js';

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: unknown) => (e instanceof RunledgerError ? e.code : String(e)),
  );
const userId = (a: Actor) => (a.kind === 'user' ? a.userId : a.keyId);

describe('organizations, members and invites', () => {
  let w: World;
  let owner: Actor;
  beforeEach(async () => {
    w = await openWorld();
    owner = await signIn(w.rl, 'owner@example.com');
  });
  afterEach(async () => {
    await w.close();
  });

  async function invite(email: string, role: 'owner' | 'member' = 'member') {
    return w.rl.orgs.createInvite(owner, { email, role });
  }

  it('lets an invited person join through the invite link with the invited role', async () => {
    const created = await invite('New@Example.com', 'member');
    expect(created).toMatchObject({ email: 'new@example.com', role: 'member' });
    expect(created.id).toMatch(/^inv_[a-z2-7]{26}$/);
    expect(created.dev_link).toMatch(/^http:\/\/runledger\.test\/auth\/accept-invite\?token=/);
    expect(created.expires_at).toBe('2025-03-08T12:00:00.000Z');
    const joined = await w.rl.auth.acceptInvite(tokenOf(created.dev_link));
    expect(joined.org.id).toBe(owner.orgId);
    expect(joined.role).toBe('member');
    expect(await code(w.rl.auth.acceptInvite(tokenOf(created.dev_link)))).toBe('unauthenticated');
    const invites = await w.rl.orgs.listInvites(owner, {});
    expect(invites.items[0]?.accepted_at).toBe('2025-03-01T12:00:00.000Z');
  });

  it('lets an invited e-mail join the inviting org by a plain sign-in link instead of a new org', async () => {
    await invite('joiner@example.com', 'owner');
    const actor = await signIn(w.rl, 'joiner@example.com');
    expect(actor.orgId).toBe(owner.orgId);
    expect(actor.role).toBe('owner');
    expect((await w.rl.orgs.listInvites(owner, {})).items[0]?.accepted_at).not.toBeNull();
  });

  it('answers 409 to a user of another org accepting an invite, and keeps the invite usable', async () => {
    await signIn(w.rl, 'elsewhere@example.com');
    const created = await invite('elsewhere@example.com');
    expect(await code(w.rl.auth.acceptInvite(tokenOf(created.dev_link)))).toBe('conflict');
    const [listed] = (await w.rl.orgs.listInvites(owner, {})).items;
    expect(listed?.accepted_at).toBeNull();
  });

  it('refuses an invite for someone already in the org', async () => {
    expect(await code(invite('owner@example.com'))).toBe('conflict');
  });

  it('rejects an expired or revoked invite', async () => {
    const expiring = await invite('late@example.com');
    const revoked = await invite('gone@example.com');
    await w.rl.orgs.revokeInvite(owner, revoked.id);
    expect(await code(w.rl.auth.acceptInvite(tokenOf(revoked.dev_link)))).toBe('unauthenticated');
    w.clock.advance(168 * 3_600_000);
    expect(await code(w.rl.auth.acceptInvite(tokenOf(expiring.dev_link)))).toBe('unauthenticated');
    // A revoked invite does not pull its e-mail into the org at sign-in either.
    const gone = await signIn(w.rl, 'gone@example.com');
    expect(gone.orgId).not.toBe(owner.orgId);
  });

  it('keeps invites and members of one org invisible to another', async () => {
    const created = await invite('x@example.com');
    const other = await signIn(w.rl, 'other@example.com');
    expect(await code(w.rl.orgs.revokeInvite(other, created.id))).toBe('not_found');
    expect((await w.rl.orgs.listInvites(other, {})).items).toEqual([]);
    expect(await code(w.rl.orgs.removeMember(other, userId(owner)))).toBe('not_found');
    expect(await code(w.rl.orgs.updateMemberRole(other, userId(owner), 'member'))).toBe(
      'not_found',
    );
    expect((await w.rl.orgs.listMembers(other, {})).items.map((m) => m.email)).toEqual([
      'other@example.com',
    ]);
  });

  it('answers 409 to revoking an accepted invite', async () => {
    const created = await invite('x@example.com');
    await w.rl.auth.acceptInvite(tokenOf(created.dev_link));
    expect(await code(w.rl.orgs.revokeInvite(owner, created.id))).toBe('conflict');
  });

  it('never demotes or removes the last owner', async () => {
    expect(await code(w.rl.orgs.updateMemberRole(owner, userId(owner), 'member'))).toBe('conflict');
    expect(await code(w.rl.orgs.removeMember(owner, userId(owner)))).toBe('conflict');
    const second = await w.rl.auth.acceptInvite(
      tokenOf((await invite('two@example.com', 'owner')).dev_link),
    );
    expect(await w.rl.orgs.updateMemberRole(owner, userId(owner), 'member')).toMatchObject({
      role: 'member',
    });
    const secondOwner = await w.rl.auth.resolveUser(second.user.id, second.org.id);
    expect(await code(w.rl.orgs.removeMember(secondOwner, second.user.id))).toBe('conflict');
    await w.rl.orgs.removeMember(secondOwner, userId(owner));
    expect(await code(w.rl.auth.resolveUser(userId(owner), owner.orgId))).toBe('unauthenticated');
  });

  it('forbids members and API keys the owner-only operations', async () => {
    const joined = await w.rl.auth.acceptInvite(tokenOf((await invite('m@example.com')).dev_link));
    const member = await w.rl.auth.resolveUser(joined.user.id, joined.org.id);
    const key = await w.rl.apiKeys.create(owner, { name: 'ci' });
    const keyActor = await w.rl.auth.authenticateApiKey(key.key);
    for (const actor of [member, keyActor]) {
      expect(
        await code(w.rl.orgs.createInvite(actor, { email: 'z@example.com', role: 'member' })),
      ).toBe('forbidden');
      expect(await code(w.rl.orgs.listInvites(actor, {}))).toBe('forbidden');
      expect(await code(w.rl.orgs.updateMemberRole(actor, userId(owner), 'member'))).toBe(
        'forbidden',
      );
      expect(await code(w.rl.orgs.removeMember(actor, userId(owner)))).toBe('forbidden');
      expect(await code(w.rl.apiKeys.create(actor, { name: 'x' }))).toBe('forbidden');
      expect(await code(w.rl.apiKeys.list(actor, {}))).toBe('forbidden');
      expect(await code(w.rl.apiKeys.revoke(actor, key.key_id))).toBe('forbidden');
      expect((await w.rl.orgs.get(actor)).id).toBe(owner.orgId);
      expect((await w.rl.orgs.listMembers(actor, {})).items).toHaveLength(2);
    }
  });

  it('pages members with an opaque cursor and rejects bad page parameters', async () => {
    for (let i = 0; i < 4; i++) {
      w.clock.advance(1000);
      await w.rl.auth.acceptInvite(tokenOf((await invite(`m${i}@example.com`)).dev_link));
    }
    const first = await w.rl.orgs.listMembers(owner, { limit: 2 });
    expect(first.items.map((m) => m.email)).toEqual(['owner@example.com', 'm0@example.com']);
    expect(first.next).toEqual(expect.any(String));
    const second = await w.rl.orgs.listMembers(owner, { limit: 2, after: first.next ?? '' });
    const third = await w.rl.orgs.listMembers(owner, { limit: 2, after: second.next ?? '' });
    expect(second.items.map((m) => m.email)).toEqual(['m1@example.com', 'm2@example.com']);
    expect(third).toMatchObject({ next: null });
    expect(third.items.map((m) => m.email)).toEqual(['m3@example.com']);
    expect(await code(w.rl.orgs.listMembers(owner, { after: 'not a cursor' }))).toBe(
      'invalid_input',
    );
    expect(await code(w.rl.orgs.listMembers(owner, { limit: 201 }))).toBe('invalid_input');
    expect(await code(w.rl.orgs.listMembers(owner, { limit: 0 }))).toBe('invalid_input');
  });
});
