import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEDGER_LOG, appendLeaves, treeRootAt, treeSize } from '@runledger/core/adapter';
import { StorageFaultError } from '@runledger/core';
import type { MerkleNode, MerkleTail, Storage } from '@runledger/core/ports';
import { leafHash, merkleRoot } from '@runledger/verify/merkle';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { merkleRepository } from '../sql/merkle.js';
import { Connection } from './connection.js';
import { tailAfter } from './merkle-tails.js';
import { migrate } from './migrations.js';
import { openSqliteStorage } from './storage.js';

/** A node's hash that names it, so a test sees which node it was handed. */
const named = (level: number, index: number): MerkleNode => ({
  level,
  index,
  hash: new TextEncoder().encode(`${level}/${index}`),
});

/** The right edge of a tree of `size` leaves, as the database reads it: lowest level first. */
function edgeOf(size: number): MerkleTail {
  const nodes: MerkleNode[] = [];
  for (let level = 0; 2 ** level <= size; level += 1) {
    const count = Math.floor(size / 2 ** level);
    if (count % 2 === 1) nodes.push(named(level, count - 1));
  }
  return { size, nodes };
}

/** The nodes that leaves size … size+k-1 complete. */
function completedBy(size: number, k: number): MerkleNode[] {
  const nodes: MerkleNode[] = [];
  for (let leaf = size; leaf < size + k; leaf += 1) {
    for (let level = 0; (leaf + 1) % 2 ** level === 0; level += 1) {
      nodes.push(named(level, (leaf + 1) / 2 ** level - 1));
    }
  }
  return nodes;
}

describe('tailAfter', () => {
  it('is the right edge of the grown tree, whatever the sizes', () => {
    fc.assert(
      fc.property(fc.nat(1 << 20), fc.integer({ min: 1, max: 300 }), (size, k) => {
        expect(tailAfter(edgeOf(size), completedBy(size, k))).toEqual(edgeOf(size + k));
      }),
    );
  });

  it('is null when the nodes do not append right after the tail', () => {
    fc.assert(
      fc.property(
        fc.nat(1 << 20),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: -3, max: 3 }).filter((d) => d !== 0),
        (size, k, shift) => {
          fc.pre(size + shift >= 0);
          expect(tailAfter(edgeOf(size), completedBy(size + shift, k))).toBeNull();
        },
      ),
    );
  });

  it('is null when a node of the new edge is neither new nor on the old edge', () => {
    // 6 leaves: edge 2/0, 1/2; a seventh leaf's edge needs both and 0/6.
    const damaged = { size: 6, nodes: [named(1, 2)] };
    expect(tailAfter(damaged, completedBy(6, 1))).toBeNull();
  });
});

describe("the SQLite writer's copy of the Merkle tails", () => {
  let dir: string;
  let file: string;
  const open: Storage[] = [];
  const leaves = (from: number, k: number) =>
    Array.from({ length: k }, (_, i) => new TextEncoder().encode(`leaf ${from + i}`));
  const rootOf = (count: number) => merkleRoot(leaves(0, count).map((l) => leafHash(l)));

  async function storage(): Promise<Storage> {
    const s = await openSqliteStorage({ file });
    open.push(s);
    return s;
  }

  async function withOrg(s: Storage): Promise<void> {
    await s.write((tx) =>
      tx.orgs.insert({ id: 'org_1', name: 'One', created_at: '2025-01-01T00:00:00.000Z' }),
    );
  }

  /** The tree as the database holds it, read on a reader (never the writer's copy). */
  async function stored(s: Storage, count: number) {
    return s.read(async (tx) => ({
      size: await treeSize(tx, 'org_1', LEDGER_LOG),
      root: count === 0 ? null : await treeRootAt(tx, 'org_1', LEDGER_LOG, count),
    }));
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-merkle-tails-'));
    file = join(dir, 'db.sqlite');
  });
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves an append its tail from the copy once a batch has committed it', async () => {
    const connection = await Connection.open(file);
    try {
      await migrate(connection);
      await connection.sql.run(
        "INSERT INTO orgs (id, name, created_at) VALUES ('org_1', 'One', '2025-01-01T00:00:00.000Z')",
      );
      const append = (from: number, k: number) =>
        connection.transaction((sql) =>
          appendLeaves(
            { merkle: connection.tails.around(merkleRepository(sql)) },
            'org_1',
            LEDGER_LOG,
            leaves(from, k),
          ),
        );
      await append(0, 3);
      expect(connection.tails.stats).toEqual({ served: 0, read: 1 });
      for (let i = 1; i < 5; i += 1) await append(i * 3, 3);
      expect(connection.tails.stats).toEqual({ served: 4, read: 1 });
      const tail = await connection.transaction((sql) =>
        connection.tails.around(merkleRepository(sql)).tail('org_1', LEDGER_LOG),
      );
      const fromDatabase = await connection.transaction((sql) =>
        merkleRepository(sql).tail('org_1', LEDGER_LOG),
      );
      expect(tail).toEqual(fromDatabase);
      expect(tail.size).toBe(15);
    } finally {
      await connection.close();
    }
    const s = await storage();
    expect(await stored(s, 15)).toEqual({ size: 15, root: rootOf(15) });
  });

  it('drops an append that rolled back with its savepoint, in the same batch or later', async () => {
    const s = await storage();
    await withOrg(s);
    await s.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, leaves(0, 2)));
    // Submitted together, these share a batch: the middle one appends, then throws.
    const results = await Promise.allSettled([
      s.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, leaves(2, 1))),
      s.write(async (tx) => {
        await appendLeaves(tx, 'org_1', LEDGER_LOG, [new TextEncoder().encode('rolled back')]);
        throw new Error('refused after appending');
      }),
      s.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, leaves(3, 2))),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await s.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, leaves(5, 1)));
    expect(await stored(s, 6)).toEqual({ size: 6, root: rootOf(6) });
  });

  it('drops the appends of a batch that failed as a whole', async () => {
    const s = await storage();
    await withOrg(s);
    await s.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, leaves(0, 3)));
    // A storage fault (a full disk) in one savepoint fails its whole batch, the append before it too.
    const results = await Promise.allSettled([
      s.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, leaves(3, 2))),
      s.write(async (tx) => {
        await appendLeaves(tx, 'org_1', LEDGER_LOG, [new TextEncoder().encode('lost')]);
        throw new StorageFaultError('disk_full');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await s.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, leaves(3, 1)));
    expect(await stored(s, 4)).toEqual({ size: 4, root: rootOf(4) });
  });

  it("reads the tail again after another connection's commit (PRAGMA data_version)", async () => {
    const first = await storage();
    await withOrg(first);
    await first.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, leaves(0, 3)));
    await first.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, leaves(3, 1)));
    // A second writer on the same file (a second server) appends behind the first one's copy.
    const second = await storage();
    await second.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, leaves(4, 3)));
    await first.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, leaves(7, 2)));
    expect(await stored(first, 9)).toEqual({ size: 9, root: rootOf(9) });
  });

  it('keeps the tree equal to its leaves through any mix of appends, rollbacks and a second writer', async () => {
    const step = fc.record({
      k: fc.integer({ min: 1, max: 5 }),
      kind: fc.constantFrom('append', 'rollback', 'second writer'),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(step, { minLength: 1, maxLength: 4 }), { maxLength: 8 }),
        async (batches) => {
          for (const s of open.splice(0)) await s.close();
          await rm(dir, { recursive: true, force: true });
          dir = await mkdtemp(join(tmpdir(), 'runledger-merkle-tails-'));
          file = join(dir, 'db.sqlite');
          const first = await storage();
          const second = await storage();
          await withOrg(first);
          let count = 0;
          for (const batch of batches) {
            // The steps of one element are submitted together, so they share a group commit; each
            // takes the next leaves when it runs (savepoints run one after another, in order).
            const results = await Promise.allSettled(
              batch.map(({ k, kind }) =>
                (kind === 'second writer' ? second : first).write(async (tx) => {
                  const size = await treeSize(tx, 'org_1', LEDGER_LOG);
                  await appendLeaves(tx, 'org_1', LEDGER_LOG, leaves(size, k));
                  if (kind === 'rollback') throw new Error('rolled back');
                }),
              ),
            );
            // Every append finds the tree as it is: none is refused for a stale tail.
            expect(results.map((r) => r.status)).toEqual(
              batch.map(({ kind }) => (kind === 'rollback' ? 'rejected' : 'fulfilled')),
            );
            count = await first.read((tx) => treeSize(tx, 'org_1', LEDGER_LOG));
          }
          expect(await stored(first, count)).toEqual({
            size: count,
            root: count === 0 ? null : rootOf(count),
          });
        },
      ),
      { numRuns: 25 },
    );
  });
});
