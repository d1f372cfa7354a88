import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIGNING_KEY_STATE, recordSigningKeyRotation } from '@runledger/core/adapter';
import type { Actor } from '@runledger/core';
import { verifyExportLines } from '@runledger/verify';
import { AuditReceiptPayload, type AuditReceipt } from '@runledger/core/schemas';
import { engines } from '../helpers/postgres.js';
import { openRunWorld, signIn, type RunWorld } from '../embedding/world.js';

const OLD_KEY = 0x0a1b2c3d;
const NEW_KEY = 0xfedcba98;

describe.each(engines)('signing key rotation receipts on %s', (engine) => {
  let world: RunWorld;
  let owners: Actor[];

  async function chain(owner: Actor): Promise<AuditReceipt[]> {
    const page = await world.rl.audit.list(owner, { limit: 200 });
    expect(page.next).toBeNull();
    return page.entries;
  }

  const rotated = async (owner: Actor) =>
    (await chain(owner)).filter((r) => r.event_type === 'signing_key.rotated');

  const start = (keyId: number) =>
    recordSigningKeyRotation(world.storage, keyId, world.clock.now());

  beforeEach(async () => {
    world = await openRunWorld(engine);
    owners = [await signIn(world.rl, 'one@example.com'), await signIn(world.rl, 'two@example.com')];
  });
  afterEach(async () => {
    await world.close();
  });

  it('stores the key at the first start ever and writes no receipt', async () => {
    expect(await start(OLD_KEY)).toEqual({
      key_id: '0a1b2c3d',
      previous_key_id: null,
      receipts: 0,
    });
    const stored = await world.storage.read((tx) => tx.deploymentState.get(SIGNING_KEY_STATE));
    expect(stored).toBe('0a1b2c3d');
    for (const owner of owners) expect(await rotated(owner)).toEqual([]);
  });

  it('writes nothing when the deployment restarts with the same key', async () => {
    await start(OLD_KEY);
    world.clock.advance(1000);
    expect((await start(OLD_KEY)).receipts).toBe(0);
    for (const owner of owners) expect(await rotated(owner)).toEqual([]);
  });

  it('writes one receipt per organization when the key changes, and the chains still verify', async () => {
    await start(OLD_KEY);
    world.clock.advance(1000);
    expect(await start(NEW_KEY)).toEqual({
      key_id: 'fedcba98',
      previous_key_id: '0a1b2c3d',
      receipts: 2,
    });
    for (const owner of owners) {
      const receipts = await chain(owner);
      const last = receipts.at(-1)!;
      expect(receipts.filter((r) => r.event_type === 'signing_key.rotated')).toEqual([last]);
      expect(AuditReceiptPayload.parse(last.payload)).toEqual(last.payload);
      expect(last.payload).toMatchObject({
        org_id: owner.orgId,
        minted_at: world.clock.now().toISOString(),
        actor: { kind: 'deployment', id: null },
        event: { type: 'signing_key.rotated', key_id: 'fedcba98', previous_key_id: '0a1b2c3d' },
      });
      const lines: string[] = [];
      for await (const line of world.rl.audit.export(owner)) lines.push(line);
      const verified = await verifyExportLines(lines);
      expect(verified.errors).toEqual([]);
      expect(verified.ok).toBe(true);
      expect(verified.receipts_checked).toBe(receipts.length);
    }
    // Starting again with the new key, or rotating back, is judged against the stored key.
    expect((await start(NEW_KEY)).receipts).toBe(0);
    expect(await start(OLD_KEY)).toMatchObject({ previous_key_id: 'fedcba98', receipts: 2 });
    for (const owner of owners) expect(await rotated(owner)).toHaveLength(2);
  });

  it('records the rotation once when two instances start with the new key at once', async () => {
    await start(OLD_KEY);
    world.clock.advance(1000);
    const results = await Promise.all([start(NEW_KEY), start(NEW_KEY)]);
    expect(results.map((r) => r.receipts).sort()).toEqual([0, 2]);
    for (const owner of owners) expect(await rotated(owner)).toHaveLength(1);
  });
});
