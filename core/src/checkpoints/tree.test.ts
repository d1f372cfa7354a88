import {
  consistencyPlan,
  inclusionPlan,
  leafHash,
  merkleRoot,
  rangeNodes,
} from '@runledger/verify/merkle';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MerkleNode, MerkleStorage } from '../ports/merkle-storage.js';
import { appendLeaves, inclusionProofAt, treeRootAt } from './tree.js';

const MILLION = 1_000_000;

/** An in-memory MerkleStorage for the pure tests: one map, counting the nodes each call reads. */
function memoryMerkle() {
  const nodes = new Map<string, Uint8Array>();
  const reads: number[] = [];
  const merkle: MerkleStorage = {
    size: async () => [...nodes.keys()].filter((k) => k.startsWith('0/')).length,
    tail: async () => {
      const size = [...nodes.keys()].filter((k) => k.startsWith('0/')).length;
      const edge = rangeNodes(0, size).flatMap((id): MerkleNode[] => {
        const hash = nodes.get(`${id.level}/${id.index}`);
        return hash === undefined ? [] : [{ ...id, hash }];
      });
      return { size, nodes: edge };
    },
    nodes: async (_org, _log, ids) => {
      reads.push(ids.length);
      return ids.flatMap((id): MerkleNode[] => {
        const hash = nodes.get(`${id.level}/${id.index}`);
        return hash === undefined ? [] : [{ ...id, hash }];
      });
    },
    insert: async (_org, _log, added) => {
      // Refused whole, as the primary key refuses the statement.
      if (added.some((n) => nodes.has(`${n.level}/${n.index}`))) throw new Error('duplicate node');
      for (const n of added) nodes.set(`${n.level}/${n.index}`, n.hash);
    },
    // A map has no planner.
    refreshStatistics: async () => undefined,
  };
  return { tx: { merkle }, reads };
}

describe('the tree at 10^6 receipts', () => {
  it('proves inclusion with at most 20 hashes and consistency with at most 21', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MILLION - 1 }),
        fc.integer({ min: 1, max: MILLION }),
        (leaf, first) => {
          expect(inclusionPlan(leaf, MILLION).length).toBeLessThanOrEqual(20);
          expect(consistencyPlan(first, MILLION).length).toBeLessThanOrEqual(21);
        },
      ),
    );
  });
});

describe('appendLeaves and the reads behind proofs', () => {
  it('reads at most log2 n + 1 nodes per append and per root, and gives the root from scratch', async () => {
    const { tx, reads } = memoryMerkle();
    const data = Array.from({ length: 300 }, (_, i) => new Uint8Array(32).fill(i % 256));
    for (const [i, leaf] of data.entries()) {
      const head = await appendLeaves(tx, 'o', 'ledger', [leaf]);
      expect(head.size).toBe(i + 1);
    }
    expect(Math.max(...reads)).toBeLessThanOrEqual(Math.ceil(Math.log2(300)) + 1);
    const expected = merkleRoot(data.slice(0, 177).map(leafHash));
    expect(await treeRootAt(tx, 'o', 'ledger', 177)).toEqual(expected);
    const path = await inclusionProofAt(tx, 'o', 'ledger', 100, 177);
    expect(path.length).toBeLessThanOrEqual(8);
  });
});

describe('appendLeaves at a size the caller gives', () => {
  it('refuses a size the tree does not have and leaves the tree as it was', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 70 }),
        fc.integer({ min: 0, max: 80 }),
        async (stored, claimed) => {
          fc.pre(stored !== claimed);
          const { tx } = memoryMerkle();
          const data = Array.from({ length: stored }, (_, i) => new Uint8Array(32).fill(i % 256));
          if (stored > 0) await appendLeaves(tx, 'o', 'ledger', data);
          await expect(
            appendLeaves(tx, 'o', 'ledger', [new Uint8Array(32).fill(255)], claimed),
          ).rejects.toThrow();
          expect(await tx.merkle.size('o', 'ledger')).toBe(stored);
          if (stored > 0) {
            expect(await treeRootAt(tx, 'o', 'ledger', stored)).toEqual(
              merkleRoot(data.map(leafHash)),
            );
          }
        },
      ),
    );
  });

  it('appends at the size it has, as an append that reads the size does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 70 }), async (stored) => {
        const given = memoryMerkle();
        const read = memoryMerkle();
        const data = Array.from({ length: stored + 1 }, (_, i) => new Uint8Array(32).fill(i % 256));
        for (const [i, leaf] of data.entries()) {
          const a = await appendLeaves(given.tx, 'o', 'ledger', [leaf], i);
          const b = await appendLeaves(read.tx, 'o', 'ledger', [leaf]);
          expect(a).toEqual(b);
        }
      }),
      { numRuns: 20 },
    );
  });
});
