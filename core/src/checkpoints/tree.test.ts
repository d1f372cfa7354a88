import { consistencyPlan, inclusionPlan, leafHash, merkleRoot } from '@runledger/verify';
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
    nodes: async (_org, _log, ids) => {
      reads.push(ids.length);
      return ids.flatMap((id): MerkleNode[] => {
        const hash = nodes.get(`${id.level}/${id.index}`);
        return hash === undefined ? [] : [{ ...id, hash }];
      });
    },
    insert: async (_org, _log, added) => {
      for (const n of added) nodes.set(`${n.level}/${n.index}`, n.hash);
    },
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
