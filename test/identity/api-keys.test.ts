import { RunledgerError, type Actor } from '@runledger/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWorld, signIn, type World } from './setup.js';

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: unknown) => (e instanceof RunledgerError ? e.code : String(e)),
  );

describe('API keys', () => {
  let w: World;
  let owner: Actor;
  beforeEach(async () => {
    w = await openWorld();
    owner = await signIn(w.rl, 'owner@example.com');
  });
  afterEach(async () => {
    await w.close();
  });

  it('creates a key whose plaintext authenticates as a member of the org', async () => {
    const created = await w.rl.apiKeys.create(owner, { name: ' ci ' });
    expect(created.key).toMatch(/^rlk_key_[a-z2-7]{26}_[\w-]{43}$/);
    expect(created.key.startsWith(`rlk_${created.key_id}_`)).toBe(true);
    expect(created.name).toBe('ci');
    expect(created.key.startsWith(created.prefix)).toBe(true);
    const actor = await w.rl.auth.authenticateApiKey(created.key);
    expect(actor).toEqual({
      kind: 'api_key',
      keyId: created.key_id,
      orgId: owner.orgId,
      role: 'member',
    });
    expect(await w.rl.auth.me(actor)).toEqual({
      id: created.key_id,
      email: 'owner@example.com',
      org_id: owner.orgId,
      org_name: "owner@example.com's organization",
      role: 'member',
      kind: 'api_key',
    });
  });

  it('records the last use of a key', async () => {
    const created = await w.rl.apiKeys.create(owner, { name: 'ci' });
    expect((await w.rl.apiKeys.list(owner, {})).items[0]?.last_used_at).toBeNull();
    w.clock.advance(5000);
    await w.rl.auth.authenticateApiKey(created.key);
    expect((await w.rl.apiKeys.list(owner, {})).items[0]?.last_used_at).toBe(
      '2025-03-01T12:00:05.000Z',
    );
    // Within a minute a use is not written again; after it, it is.
    w.clock.advance(30_000);
    await w.rl.auth.authenticateApiKey(created.key);
    expect((await w.rl.apiKeys.list(owner, {})).items[0]?.last_used_at).toBe(
      '2025-03-01T12:00:05.000Z',
    );
    w.clock.advance(30_000);
    await w.rl.auth.authenticateApiKey(created.key);
    expect((await w.rl.apiKeys.list(owner, {})).items[0]?.last_used_at).toBe(
      '2025-03-01T12:01:05.000Z',
    );
  });

  it('rejects a changed secret, an unknown key id and malformed keys', async () => {
    const { key, key_id } = await w.rl.apiKeys.create(owner, { name: 'ci' });
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    expect(await code(w.rl.auth.authenticateApiKey(key.slice(0, -1) + last))).toBe(
      'unauthenticated',
    );
    const otherId = key_id.slice(0, -1) + (key_id.at(-1) === 'a' ? 'b' : 'a');
    expect(await code(w.rl.auth.authenticateApiKey(key.replace(key_id, otherId)))).toBe(
      'unauthenticated',
    );
    for (const bad of ['', 'rlk_', key.slice(0, -1), `${key}x`, key.replace('rlk_', 'rlx_')]) {
      expect(await code(w.rl.auth.authenticateApiKey(bad))).toBe('unauthenticated');
    }
  });

  it('stops a revoked key at once and keeps it listed as revoked', async () => {
    const { key, key_id } = await w.rl.apiKeys.create(owner, { name: 'ci' });
    await w.rl.apiKeys.revoke(owner, key_id);
    await w.rl.apiKeys.revoke(owner, key_id);
    expect(await code(w.rl.auth.authenticateApiKey(key))).toBe('unauthenticated');
    expect((await w.rl.apiKeys.list(owner, {})).items[0]?.revoked_at).toBe(
      '2025-03-01T12:00:00.000Z',
    );
  });

  it("answers not_found for another org's key", async () => {
    const { key, key_id } = await w.rl.apiKeys.create(owner, { name: 'ci' });
    const other = await signIn(w.rl, 'other@example.com');
    expect(await code(w.rl.apiKeys.revoke(other, key_id))).toBe('not_found');
    expect((await w.rl.apiKeys.list(other, {})).items).toEqual([]);
    await expect(w.rl.auth.authenticateApiKey(key)).resolves.toBeDefined();
  });

  it('lists keys without hash or plaintext', async () => {
    const created = await w.rl.apiKeys.create(owner, { name: 'ci' });
    const listed = await w.rl.apiKeys.list(owner, {});
    expect(Object.keys(listed.items[0] ?? {}).sort()).toEqual([
      'created_at',
      'created_by',
      'key_id',
      'last_used_at',
      'name',
      'prefix',
      'revoked_at',
    ]);
    const secret = created.key.slice(`rlk_${created.key_id}_`.length);
    expect(JSON.stringify(listed)).not.toContain(secret);
  });
});
