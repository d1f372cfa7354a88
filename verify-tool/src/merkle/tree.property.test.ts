import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../hash/sha256.js';
import { leafHash } from './hash.js';
import { CompactTree, merkleRoot, rootAt } from './compact.js';
import type { TreeNode } from './nodes.js';
import { consistencyPlan, consistencyProof, inclusionPlan, inclusionProof } from './proof.js';
import { verifyConsistency, verifyInclusion } from './verify.js';

/** A tree of n leaves grown with CompactTree, its stored nodes in a map, like a server's table. */
function grow(n: number) {
  const tree = CompactTree.empty();
  const nodes = new Map<string, Uint8Array>();
  const leaves: Uint8Array[] = [];
  const roots: Uint8Array[] = [tree.root()];
  for (let i = 0; i < n; i += 1) {
    const leaf = leafHash(sha256(`receipt ${i}`));
    leaves.push(leaf);
    for (const node of tree.append(leaf)) nodes.set(`${node.level}/${node.index}`, node.hash);
    roots.push(tree.root());
  }
  const getNode = (level: number, index: number) => {
    const hash = nodes.get(`${level}/${index}`);
    if (hash === undefined) throw new Error(`node ${level}/${index} is not stored`);
    return hash;
  };
  return { tree, leaves, roots, getNode };
}

/** Every single-byte change: each position of each hash, xor-ed with a non-zero byte. */
const tweak = (hashes: Uint8Array[], at: number, byte: number, xor: number) =>
  hashes.map((h, i) => {
    if (i !== at) return h;
    const copy = Uint8Array.from(h);
    copy[byte] = (copy[byte] as number) ^ xor;
    return copy;
  });

describe('Merkle tree properties', () => {
  const big = grow(300);

  it('the incremental root equals the root from the leaves and from stored nodes, at every size', () => {
    for (let n = 0; n <= 300; n += 1) {
      expect(rootAt(n, big.getNode)).toEqual(big.roots[n]);
    }
    expect(merkleRoot(big.leaves)).toEqual(big.tree.root());
  });

  it('a tree restored from stored nodes keeps growing to the same roots', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 299 }), async (size) => {
        const restored = await CompactTree.load(size, async (l, i) => big.getNode(l, i));
        for (let i = size; i < 300; i += 1) restored.push(big.leaves[i]!);
        expect(restored.root()).toEqual(big.tree.root());
      }),
      { numRuns: 50 },
    );
  });

  it('append reports each new complete subtree once', () => {
    const tree = CompactTree.empty();
    const created: TreeNode[] = [];
    for (const leaf of big.leaves.slice(0, 64)) created.push(...tree.append(leaf));
    expect(created).toHaveLength(127);
    expect(new Set(created.map((n) => `${n.level}/${n.index}`)).size).toBe(127);
  });

  it('inclusion proofs of random trees verify, and any single-byte change is rejected', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }).chain((n) => fc.tuple(fc.constant(n), fc.nat(n - 1))),
        fc.nat(),
        fc.nat(31),
        fc.integer({ min: 1, max: 255 }),
        ([n, m], at, byte, xor) => {
          const proof = inclusionProof(m, n, big.getNode);
          expect(verifyInclusion(m, n, big.leaves[m]!, proof, big.roots[n]!)).toBe(true);
          if (proof.length > 0) {
            const bad = tweak(proof, at % proof.length, byte, xor);
            expect(verifyInclusion(m, n, big.leaves[m]!, bad, big.roots[n]!)).toBe(false);
          }
          const badLeaf = tweak([big.leaves[m]!], 0, byte, xor)[0]!;
          expect(verifyInclusion(m, n, badLeaf, proof, big.roots[n]!)).toBe(false);
          expect(
            verifyInclusion(m, n, big.leaves[m]!, [...proof, proof[0] ?? badLeaf], big.roots[n]!),
          ).toBe(false);
          if (n > 1)
            expect(verifyInclusion((m + 1) % n, n, big.leaves[m]!, proof, big.roots[n]!)).toBe(
              false,
            );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('consistency proofs of random trees verify, and any single-byte change is rejected', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 300 })
          .chain((n) => fc.tuple(fc.integer({ min: 1, max: n }), fc.constant(n))),
        fc.nat(),
        fc.nat(31),
        fc.integer({ min: 1, max: 255 }),
        ([m, n], at, byte, xor) => {
          const proof = consistencyProof(m, n, big.getNode);
          expect(verifyConsistency(m, n, proof, big.roots[m]!, big.roots[n]!)).toBe(true);
          if (proof.length > 0) {
            const bad = tweak(proof, at % proof.length, byte, xor);
            expect(verifyConsistency(m, n, bad, big.roots[m]!, big.roots[n]!)).toBe(false);
          }
          const badOld = tweak([big.roots[m]!], 0, byte, xor)[0]!;
          expect(verifyConsistency(m, n, proof, badOld, big.roots[n]!)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a proof at 10^6 leaves has at most 21 hashes', () => {
    fc.assert(
      fc.property(fc.nat(999_999), fc.integer({ min: 1, max: 1_000_000 }), (leaf, first) => {
        expect(inclusionPlan(leaf, 1_000_000).length).toBeLessThanOrEqual(21);
        expect(consistencyPlan(first, 1_000_000).length).toBeLessThanOrEqual(21);
      }),
    );
  });

  it('refuses proofs for sizes out of range', () => {
    expect(() => inclusionPlan(5, 5)).toThrow(RangeError);
    expect(() => consistencyPlan(0, 5)).toThrow(RangeError);
    expect(() => consistencyPlan(6, 5)).toThrow(RangeError);
    expect(() => inclusionPlan(0, 2 ** 60)).toThrow(RangeError);
  });
});
