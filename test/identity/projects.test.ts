import { RunledgerError, type Actor } from '@runledger/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWorld, signIn, type World } from './setup.js';

describe('projects', () => {
  let w: World;
  let owner: Actor;
  beforeEach(async () => {
    w = await openWorld();
    owner = await signIn(w.rl, 'owner@example.com');
  });
  afterEach(async () => {
    await w.close();
  });

  it('creates, reads and lists projects of the org', async () => {
    const project = await w.rl.projects.create(owner, { name: ' Alpha ' });
    expect(project).toEqual({
      id: expect.stringMatching(/^prj_[a-z2-7]{26}$/),
      name: 'Alpha',
      created_at: '2025-03-01T12:00:00.000Z',
      created_by: owner.kind === 'user' ? owner.userId : '',
    });
    expect(await w.rl.projects.get(owner, project.id)).toEqual(project);
    expect(await w.rl.projects.list(owner, {})).toEqual({ items: [project], next: null });
  });

  it('records an API key as the creator of a project it creates', async () => {
    const key = await w.rl.apiKeys.create(owner, { name: 'ci' });
    const actor = await w.rl.auth.authenticateApiKey(key.key);
    expect((await w.rl.projects.create(actor, { name: 'By key' })).created_by).toBe(key.key_id);
  });

  it("answers not_found for another org's project", async () => {
    const project = await w.rl.projects.create(owner, { name: 'Alpha' });
    const other = await signIn(w.rl, 'other@example.com');
    await expect(w.rl.projects.get(other, project.id)).rejects.toSatisfy(
      (e) => e instanceof RunledgerError && e.code === 'not_found',
    );
    expect((await w.rl.projects.list(other, {})).items).toEqual([]);
  });

  it('pages through every project exactly once', async () => {
    const created = [];
    for (let i = 0; i < 7; i++) {
      if (i % 2 === 0) w.clock.advance(1);
      created.push(await w.rl.projects.create(owner, { name: `P${i}` }));
    }
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await w.rl.projects.list(owner, { limit: 3, ...(after ? { after } : {}) });
      seen.push(...page.items.map((p) => p.id));
      if (page.next === null) break;
      after = page.next;
    }
    expect(seen.sort()).toEqual(created.map((p) => p.id).sort());
    expect(new Set(seen).size).toBe(7);
  });
});
