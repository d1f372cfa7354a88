import type {
  ApiKeyRecord,
  LinkRecord,
  PageQuery,
  ProjectRecord,
  Repositories,
  Storage,
} from '@runledger/core/ports';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** Fixed times: ISO 8601 UTC with milliseconds, as the core writes them. */
const T0 = '2025-01-01T00:00:00.000Z';
const T1 = '2025-01-01T00:05:00.000Z';
const T2 = '2025-01-01T00:10:00.000Z';
const T3 = '2025-01-01T00:15:00.000Z';
const hash = (c: string) => c.repeat(64).slice(0, 64);

async function seedOrg(tx: Repositories, n: number, role: 'owner' | 'member' = 'owner') {
  const org = { id: `org_${n}`, name: `Org ${n}`, created_at: T0 };
  const user = { id: `usr_${n}`, email: `u${n}@example.com`, created_at: T0 };
  await tx.orgs.insert(org);
  await tx.users.insert(user);
  await tx.memberships.insert({ org_id: org.id, user_id: user.id, role, created_at: T0 });
  return { org, user };
}

function link(over: Partial<LinkRecord> = {}): LinkRecord {
  return {
    id: 'lnk_1',
    purpose: 'sign_in',
    token_hash: hash('a'),
    email: 'u1@example.com',
    org_id: null,
    role: null,
    created_by: null,
    created_at: T0,
    expires_at: T2,
    used_at: null,
    revoked_at: null,
    ...over,
  };
}

function apiKey(over: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    key_id: 'key_1',
    org_id: 'org_1',
    name: 'ci',
    prefix: 'rlk_key_1',
    secret_hash: hash('b'),
    created_at: T0,
    created_by: 'usr_1',
    last_used_at: null,
    revoked_at: null,
    ...over,
  };
}

function project(id: string, org = 'org_1', created_at = T0): ProjectRecord {
  return { id, org_id: org, name: `Project ${id}`, created_at, created_by: 'usr_1' };
}

/** Reads every page of a list, following the last row as the cursor. */
async function allPages<R>(
  list: (page: PageQuery) => Promise<R[]>,
  key: (row: R) => { created_at: string; id: string },
  limit: number,
): Promise<R[][]> {
  const pages: R[][] = [];
  let after: PageQuery['after'] = null;
  for (;;) {
    const rows = await list({ limit, after });
    if (rows.length === 0) return pages;
    pages.push(rows);
    const last = rows[rows.length - 1];
    if (last === undefined) return pages;
    after = key(last);
  }
}

/**
 * How an adapter runs transactions: `serial` ones (one SQLite connection) run one after another in
 * the order they were started; `concurrent` ones (a PostgreSQL pool) overlap but stay isolated.
 */
export type TransactionModel = 'serial' | 'concurrent';

/** The behaviour every storage adapter must show; `open` returns a fresh, empty, migrated storage. */
export function describeStorageContract(
  name: string,
  open: () => Promise<Storage>,
  model: TransactionModel = 'serial',
): void {
  describe(`storage contract: ${name}`, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await open();
    });
    afterEach(async () => {
      await storage.close();
    });
    const tx = <T>(fn: (r: Repositories) => Promise<T>) => storage.write(fn);

    describe('users and orgs', () => {
      it('finds a user by id and by e-mail, and nothing for unknown ones', async () => {
        await tx((r) => seedOrg(r, 1));
        expect(await tx((r) => r.users.byId('usr_1'))).toEqual({
          id: 'usr_1',
          email: 'u1@example.com',
          created_at: T0,
        });
        expect((await tx((r) => r.users.byEmail('u1@example.com')))?.id).toBe('usr_1');
        expect(await tx((r) => r.users.byEmail('nobody@example.com'))).toBeNull();
        expect(await tx((r) => r.users.byId('usr_x'))).toBeNull();
        expect(await tx((r) => r.orgs.byId('org_1'))).toEqual({
          id: 'org_1',
          name: 'Org 1',
          created_at: T0,
          share_identity: 'email',
        });
        expect(await tx((r) => r.orgs.byId('org_x'))).toBeNull();
      });

      it("keeps an organization's share identity, e-mail unless set, and refuses another value", async () => {
        await tx((r) => seedOrg(r, 1));
        await tx((r) => seedOrg(r, 2));
        await tx((r) => r.orgs.setShareIdentity('org_1', 'id'));
        expect((await tx((r) => r.orgs.byId('org_1')))?.share_identity).toBe('id');
        expect((await tx((r) => r.orgs.byId('org_2')))?.share_identity).toBe('email');
        await expect(tx((r) => r.orgs.setShareIdentity('org_2', 'name' as 'id'))).rejects.toThrow();
        expect((await tx((r) => r.orgs.byId('org_2')))?.share_identity).toBe('email');
      });

      it('rejects a second user with the same e-mail', async () => {
        await tx((r) => seedOrg(r, 1));
        await expect(
          tx((r) => r.users.insert({ id: 'usr_2', email: 'u1@example.com', created_at: T0 })),
        ).rejects.toThrow();
      });
    });

    describe('memberships', () => {
      it('gives a user at most one membership', async () => {
        await tx(async (r) => {
          await seedOrg(r, 1);
          await seedOrg(r, 2);
        });
        await expect(
          tx((r) =>
            r.memberships.insert({
              org_id: 'org_2',
              user_id: 'usr_1',
              role: 'member',
              created_at: T0,
            }),
          ),
        ).rejects.toThrow();
        expect((await tx((r) => r.memberships.byUser('usr_1')))?.org_id).toBe('org_1');
      });

      it('scopes reads and writes to the org', async () => {
        await tx(async (r) => {
          await seedOrg(r, 1);
          await seedOrg(r, 2);
        });
        expect(await tx((r) => r.memberships.get('org_1', 'usr_1'))).toEqual({
          org_id: 'org_1',
          user_id: 'usr_1',
          role: 'owner',
          created_at: T0,
          email: 'u1@example.com',
        });
        expect(await tx((r) => r.memberships.get('org_2', 'usr_1'))).toBeNull();
        expect(await tx((r) => r.memberships.updateRole('org_2', 'usr_1', 'member'))).toBe(false);
        expect(await tx((r) => r.memberships.remove('org_2', 'usr_1'))).toBe(false);
        expect((await tx((r) => r.memberships.get('org_1', 'usr_1')))?.role).toBe('owner');
      });

      it('updates roles, counts owners and removes members', async () => {
        await tx(async (r) => {
          await seedOrg(r, 1);
          await r.users.insert({ id: 'usr_9', email: 'u9@example.com', created_at: T1 });
          await r.memberships.insert({
            org_id: 'org_1',
            user_id: 'usr_9',
            role: 'member',
            created_at: T1,
          });
        });
        expect(await tx((r) => r.memberships.countOwners('org_1'))).toBe(1);
        expect(await tx((r) => r.memberships.updateRole('org_1', 'usr_9', 'owner'))).toBe(true);
        expect(await tx((r) => r.memberships.countOwners('org_1'))).toBe(2);
        expect(await tx((r) => r.memberships.remove('org_1', 'usr_9'))).toBe(true);
        expect(await tx((r) => r.memberships.byUser('usr_9'))).toBeNull();
        expect(await tx((r) => r.memberships.countOwners('org_1'))).toBe(1);
        expect(await tx((r) => r.memberships.countOwners('org_x'))).toBe(0);
      });

      it('pages members by (joined_at, user id) without repeats or gaps', async () => {
        await tx(async (r) => {
          await seedOrg(r, 1);
          await seedOrg(r, 2);
          for (let i = 0; i < 7; i++) {
            const id = `usr_m${i}`;
            await r.users.insert({ id, email: `m${i}@example.com`, created_at: T1 });
            await r.memberships.insert({
              org_id: 'org_1',
              user_id: id,
              role: 'member',
              created_at: i < 4 ? T1 : T2,
            });
          }
        });
        const pages = await tx((r) =>
          allPages(
            (p) => r.memberships.list('org_1', p),
            (m) => ({ created_at: m.created_at, id: m.user_id }),
            3,
          ),
        );
        expect(pages.map((p) => p.length)).toEqual([3, 3, 2]);
        expect(pages.flat().map((m) => m.user_id)).toEqual([
          'usr_1',
          'usr_m0',
          'usr_m1',
          'usr_m2',
          'usr_m3',
          'usr_m4',
          'usr_m5',
          'usr_m6',
        ]);
        expect(pages.flat().every((m) => m.email.endsWith('@example.com'))).toBe(true);
      });
    });

    describe('links', () => {
      beforeEach(async () => {
        await tx((r) => seedOrg(r, 1));
      });

      it('consumes a token once: the second use finds nothing', async () => {
        await tx((r) => r.links.insert(link()));
        const first = await tx((r) => r.links.consume(hash('a'), 'sign_in', T1));
        expect(first).toEqual(link({ used_at: T1 }));
        expect(await tx((r) => r.links.consume(hash('a'), 'sign_in', T1))).toBeNull();
      });

      it('lets exactly one of two concurrent consumers win', async () => {
        await tx((r) => r.links.insert(link()));
        const results = await Promise.all(
          [1, 2, 3].map(() => tx((r) => r.links.consume(hash('a'), 'sign_in', T1))),
        );
        expect(results.filter((x) => x !== null)).toHaveLength(1);
      });

      it('does not consume an expired, revoked or other-purpose token, or an unknown hash', async () => {
        await tx(async (r) => {
          await r.links.insert(link());
          await r.links.insert(
            link({ id: 'inv_1', purpose: 'invite', token_hash: hash('c'), org_id: 'org_1' }),
          );
          await r.links.insert(
            link({ id: 'lnk_r', token_hash: hash('d'), revoked_at: T0, org_id: 'org_1' }),
          );
        });
        expect(await tx((r) => r.links.consume(hash('a'), 'sign_in', T2))).toBeNull();
        expect(await tx((r) => r.links.consume(hash('a'), 'invite', T1))).toBeNull();
        expect(await tx((r) => r.links.consume(hash('c'), 'sign_in', T1))).toBeNull();
        expect(await tx((r) => r.links.consume(hash('d'), 'sign_in', T1))).toBeNull();
        expect(await tx((r) => r.links.consume(hash('e'), 'sign_in', T1))).toBeNull();
        // The failed attempts left the valid token usable.
        expect(await tx((r) => r.links.consume(hash('a'), 'sign_in', T1))).not.toBeNull();
      });

      it('finds the newest usable invite for an e-mail and marks it used once', async () => {
        const invite = (
          id: string,
          h: string,
          created_at: string,
          over: Partial<LinkRecord> = {},
        ) =>
          link({
            id,
            purpose: 'invite',
            token_hash: hash(h),
            email: 'new@example.com',
            org_id: 'org_1',
            role: 'member',
            created_by: 'usr_1',
            created_at,
            expires_at: T3,
            ...over,
          });
        await tx(async (r) => {
          await r.links.insert(invite('inv_a', 'a', T0));
          await r.links.insert(invite('inv_b', 'b', T1));
          await r.links.insert(invite('inv_c', 'c', T2, { revoked_at: T2 }));
          await r.links.insert(invite('inv_d', 'd', T2, { expires_at: T2 }));
        });
        expect((await tx((r) => r.links.pendingInviteFor('new@example.com', T2)))?.id).toBe(
          'inv_b',
        );
        expect(await tx((r) => r.links.markUsed('inv_b', T2))).toBe(true);
        expect(await tx((r) => r.links.markUsed('inv_b', T2))).toBe(false);
        expect((await tx((r) => r.links.pendingInviteFor('new@example.com', T2)))?.id).toBe(
          'inv_a',
        );
        expect(await tx((r) => r.links.pendingInviteFor('new@example.com', T3))).toBeNull();
        expect(await tx((r) => r.links.pendingInviteFor('other@example.com', T0))).toBeNull();
      });

      it('lists, reads and revokes only invites of the org', async () => {
        await tx(async (r) => {
          await seedOrg(r, 2);
          await r.links.insert(link());
          for (let i = 0; i < 5; i++) {
            await r.links.insert(
              link({
                id: `inv_${i}`,
                purpose: 'invite',
                token_hash: hash(String(i)),
                org_id: i < 4 ? 'org_1' : 'org_2',
                role: 'member',
                created_at: T1,
              }),
            );
          }
        });
        const pages = await tx((r) =>
          allPages(
            (p) => r.links.listInvites('org_1', p),
            (l) => ({ created_at: l.created_at, id: l.id }),
            3,
          ),
        );
        expect(pages.flat().map((l) => l.id)).toEqual(['inv_0', 'inv_1', 'inv_2', 'inv_3']);
        expect(await tx((r) => r.links.getInvite('org_2', 'inv_0'))).toBeNull();
        expect(await tx((r) => r.links.getInvite('org_1', 'lnk_1'))).toBeNull();
        expect(await tx((r) => r.links.revokeInvite('org_2', 'inv_0', T2))).toBe(false);
        expect(await tx((r) => r.links.revokeInvite('org_1', 'inv_0', T2))).toBe(true);
        expect(await tx((r) => r.links.revokeInvite('org_1', 'inv_0', T3))).toBe(false);
        expect((await tx((r) => r.links.getInvite('org_1', 'inv_0')))?.revoked_at).toBe(T2);
        expect(await tx((r) => r.links.consume(hash('0'), 'invite', T1))).toBeNull();
        expect(await tx((r) => r.links.consume(hash('1'), 'invite', T1))).not.toBeNull();
        expect(await tx((r) => r.links.revokeInvite('org_1', 'inv_1', T2))).toBe(false);
      });
    });

    describe('API keys', () => {
      beforeEach(async () => {
        await tx(async (r) => {
          await seedOrg(r, 1);
          await seedOrg(r, 2);
        });
      });

      it('reads a key by id, and by org only in its own org', async () => {
        await tx((r) => r.apiKeys.insert(apiKey()));
        expect(await tx((r) => r.apiKeys.byId('key_1'))).toEqual(apiKey());
        expect(await tx((r) => r.apiKeys.get('org_1', 'key_1'))).toEqual(apiKey());
        expect(await tx((r) => r.apiKeys.get('org_2', 'key_1'))).toBeNull();
        expect(await tx((r) => r.apiKeys.byId('key_x'))).toBeNull();
      });

      it('revokes once, within the org, and records the last use', async () => {
        await tx((r) => r.apiKeys.insert(apiKey()));
        expect(await tx((r) => r.apiKeys.revoke('org_2', 'key_1', T1))).toBe(false);
        expect(await tx((r) => r.apiKeys.revoke('org_1', 'key_1', T1))).toBe(true);
        expect(await tx((r) => r.apiKeys.revoke('org_1', 'key_1', T2))).toBe(false);
        await tx((r) => r.apiKeys.touch('key_1', T3));
        expect(await tx((r) => r.apiKeys.byId('key_1'))).toMatchObject({
          revoked_at: T1,
          last_used_at: T3,
        });
      });

      it('pages the keys of one org', async () => {
        await tx(async (r) => {
          for (let i = 0; i < 5; i++) {
            await r.apiKeys.insert(
              apiKey({ key_id: `key_${i}`, org_id: i === 2 ? 'org_2' : 'org_1' }),
            );
          }
        });
        const pages = await tx((r) =>
          allPages(
            (p) => r.apiKeys.list('org_1', p),
            (k) => ({ created_at: k.created_at, id: k.key_id }),
            2,
          ),
        );
        expect(pages.map((p) => p.map((k) => k.key_id))).toEqual([
          ['key_0', 'key_1'],
          ['key_3', 'key_4'],
        ]);
      });
    });

    describe('projects', () => {
      beforeEach(async () => {
        await tx(async (r) => {
          await seedOrg(r, 1);
          await seedOrg(r, 2);
        });
      });

      it("returns nothing for another org's project", async () => {
        await tx((r) => r.projects.insert(project('prj_1')));
        expect(await tx((r) => r.projects.get('org_1', 'prj_1'))).toEqual(project('prj_1'));
        expect(await tx((r) => r.projects.get('org_2', 'prj_1'))).toBeNull();
        expect(await tx((r) => r.projects.list('org_2', { limit: 10, after: null }))).toEqual([]);
      });

      it('pages in (created_at, id) order across equal timestamps', async () => {
        const ids = ['prj_c', 'prj_a', 'prj_e', 'prj_b', 'prj_d'];
        await tx(async (r) => {
          for (const [i, id] of ids.entries()) {
            await r.projects.insert(project(id, 'org_1', i === 0 ? T2 : T1));
          }
        });
        const pages = await tx((r) =>
          allPages(
            (p) => r.projects.list('org_1', p),
            (p) => ({ created_at: p.created_at, id: p.id }),
            2,
          ),
        );
        expect(pages.map((p) => p.map((x) => x.id))).toEqual([
          ['prj_a', 'prj_b'],
          ['prj_d', 'prj_e'],
          ['prj_c'],
        ]);
      });
    });

    describe('transactions', () => {
      it('rolls back every write of a transaction that throws', async () => {
        await expect(
          tx(async (r) => {
            await seedOrg(r, 1);
            await r.projects.insert(project('prj_1'));
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await tx((r) => r.orgs.byId('org_1'))).toBeNull();
        expect(await tx((r) => r.users.byEmail('u1@example.com'))).toBeNull();
        expect(await tx((r) => r.projects.get('org_1', 'prj_1'))).toBeNull();
      });

      it('rolls back a consumed token when the transaction throws afterwards', async () => {
        await tx(async (r) => {
          await seedOrg(r, 1);
          await r.links.insert(link());
        });
        await expect(
          tx(async (r) => {
            expect(await r.links.consume(hash('a'), 'sign_in', T1)).not.toBeNull();
            throw new Error('later failure');
          }),
        ).rejects.toThrow('later failure');
        expect(await tx((r) => r.links.consume(hash('a'), 'sign_in', T1))).not.toBeNull();
      });

      it('commits and returns the value of a transaction that succeeds', async () => {
        const value = await tx(async (r) => {
          await seedOrg(r, 1);
          return 42;
        });
        expect(value).toBe(42);
        expect(await tx((r) => r.orgs.byId('org_1'))).not.toBeNull();
      });

      // Each isolation model's own test is declared only on the engines that have that model.
      if (model === 'serial') {
        it('never interleaves concurrent transactions', async () => {
          const events: string[] = [];
          const work = (name: string) =>
            tx(async (r) => {
              events.push(`${name}:begin`);
              for (let i = 0; i < 3; i++) {
                await r.orgs.byId('org_x');
                events.push(`${name}:${i}`);
              }
              events.push(`${name}:end`);
            });
          await Promise.all([work('a'), work('b'), work('c')]);
          const expected = ['a', 'b', 'c'].flatMap((n) => [
            `${n}:begin`,
            `${n}:0`,
            `${n}:1`,
            `${n}:2`,
            `${n}:end`,
          ]);
          expect(events).toEqual(expected);
        });
      }

      if (model === 'concurrent') {
        it("never shows a concurrent transaction's uncommitted writes", async () => {
          let written!: () => void;
          const wrote = new Promise<void>((resolve) => (written = resolve));
          let release!: () => void;
          const held = new Promise<void>((resolve) => (release = resolve));
          const writer = tx(async (r) => {
            await seedOrg(r, 1);
            written();
            await held;
          });
          await wrote;
          const during = await tx((r) => r.orgs.byId('org_1'));
          release();
          await writer;
          expect(during).toBeNull();
          expect(await tx((r) => r.orgs.byId('org_1'))).not.toBeNull();
        });
      }

      it('keeps serving after a failed transaction', async () => {
        const failing = tx(async () => {
          throw new Error('first fails');
        });
        const next = tx((r) => seedOrg(r, 1));
        await expect(failing).rejects.toThrow('first fails');
        await expect(next).resolves.toBeDefined();
        expect(await tx((r) => r.orgs.byId('org_1'))).not.toBeNull();
      });

      it('refuses repository calls after its transaction ended', async () => {
        const leaked = await tx(async (r) => r);
        await expect(leaked.orgs.byId('org_1')).rejects.toThrow();
      });

      it('does not commit a transaction one of whose statements failed, even when fn caught the error', async () => {
        let caught: unknown = null;
        const failing = tx(async (r) => {
          await seedOrg(r, 1);
          // A second user with the same e-mail breaks a UNIQUE constraint.
          await r.users
            .insert({ id: 'usr_dup', email: 'u1@example.com', created_at: T0 })
            .catch((error: unknown) => (caught = error));
          return 'fn returned normally';
        });
        await expect(failing).rejects.toThrow();
        expect(caught).not.toBeNull();
        // Nothing of it committed: not the org and user written before the failed statement.
        expect(await tx((r) => r.orgs.byId('org_1'))).toBeNull();
        expect(await tx((r) => r.users.byEmail('u1@example.com'))).toBeNull();
        // And the storage goes on serving.
        await tx((r) => seedOrg(r, 2));
        expect(await tx((r) => r.orgs.byId('org_2'))).not.toBeNull();
      });

      it('rejects a write that breaks a reference', async () => {
        await expect(
          tx((r) => r.projects.insert(project('prj_1', 'org_missing'))),
        ).rejects.toThrow();
      });
    });
  });
}
