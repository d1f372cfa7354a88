import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '@runledger/core';
import { engines } from '../helpers/postgres.js';
import { approvedRun, openRunWorld, signIn, type RunWorld } from './world.js';

/** The share view under each `share_identity` (docs/share.md, "Names"), on the real storage. */
describe.each(engines)('share identity in the share view on %s', (engine) => {
  let world: RunWorld;
  let owner: Extract<Actor, { kind: 'user' }>;
  let token: string;

  beforeEach(async () => {
    world = await openRunWorld(engine);
    owner = (await signIn(world.rl, 'owner@example.com')) as typeof owner;
    const run = await approvedRun(world.rl, owner);
    ({
      receipt: { share_token: token },
    } = await world.rl.runs.mintReceipt(owner, run.id));
  });
  afterEach(async () => {
    await world.close();
  });

  /** Runs `read` with the users table (where e-mail addresses live) out of reach. */
  async function withoutUsers<T>(read: () => Promise<T>): Promise<T | 'failed'> {
    await world.tamper('ALTER TABLE users RENAME TO users_away');
    try {
      return await read().catch(() => 'failed' as const);
    } finally {
      await world.tamper('ALTER TABLE users_away RENAME TO users');
    }
  }

  it('names people by e-mail by default, reading the members’ addresses', async () => {
    const view = await world.rl.share.view(token);
    expect(view.created_by).toEqual({ id: owner.userId, email: 'owner@example.com' });
    expect(view.approved_by).toEqual({ id: owner.userId, email: 'owner@example.com' });
    expect(view.project_name).not.toBeNull();
    expect(await withoutUsers(() => world.rl.share.view(token))).toBe('failed');
  });

  it('names people by id only under "id", without reading any e-mail address', async () => {
    await world.rl.orgs.update(owner, { share_identity: 'id' });
    const view = await withoutUsers(() => world.rl.share.view(token));
    if (view === 'failed') throw new Error('the share view read the users table');
    expect(view.created_by).toEqual({ id: owner.userId, email: null });
    expect(view.approved_by).toEqual({ id: owner.userId, email: null });
    expect(view.project_name).not.toBeNull();
  });
});
