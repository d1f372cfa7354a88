import { describe, expect, it } from 'vitest';
import { SHARED_VECTORS, hex, sharedVector, toHex } from '../testing/vectors.js';
import { EMPTY_ROOT, leafHash } from './hash.js';
import { CompactTree, merkleRoot, rootAt } from './compact.js';
import { consistencyProof, inclusionProof } from './proof.js';
import { verifyConsistency, verifyInclusion } from './verify.js';

interface Reference {
  leaves_hex: string[];
  leaf_hashes_hex: string[];
  node_hashes_hex: string[][];
  empty_root_hex: string;
  roots: { size: number; root_hex: string }[];
  inclusion: { leaf_index: number; tree_size: number; root_hex: string; proof_hex: string[] }[];
  consistency: { first: number; second: number; proof_hex: string[] }[];
}
interface Probe {
  source_file: string;
  desc: string;
  want_error: boolean;
  proof_hex: string[];
}
interface Probes {
  inclusion: (Probe & {
    leaf_index: number;
    tree_size: number;
    leaf_hash_hex: string;
    root_hex: string;
  })[];
  consistency: (Probe & {
    first: number;
    second: number;
    first_root_hex: string;
    second_root_hex: string;
  })[];
}

const reference = sharedVector<Reference>('rfc6962/reference.json');
const probes = sharedVector<Probes>('rfc6962/probes.json');
if (reference === undefined || probes === undefined) {
  console.warn(`RFC 6962 vectors skipped: ${SHARED_VECTORS}rfc6962 is absent`);
}

describe.skipIf(reference === undefined)(
  'RFC 6962 reference vectors (transparency-dev/merkle)',
  () => {
    // Collected even when skipped: nothing here may touch the vectors before a test runs.
    const ref = reference as Reference;
    const leaves = reference === undefined ? [] : ref.leaves_hex.map((h) => leafHash(hex(h)));
    const getNode = (level: number, index: number) => hex(ref.node_hashes_hex[level]![index]!);

    it('hashes leaves, complete subtrees, the empty tree and every root', () => {
      expect(leaves.map(toHex)).toEqual(ref.leaf_hashes_hex);
      expect(toHex(EMPTY_ROOT)).toBe(ref.empty_root_hex);
      for (const { size, root_hex } of ref.roots) {
        expect(toHex(merkleRoot(leaves.slice(0, size)))).toBe(root_hex);
        expect(toHex(rootAt(size, getNode))).toBe(root_hex);
      }
      const tree = CompactTree.empty();
      const created = leaves.flatMap((leaf) => tree.append(leaf));
      for (const node of created)
        expect(toHex(node.hash)).toBe(ref.node_hashes_hex[node.level]![node.index]);
      expect(created).toHaveLength(ref.node_hashes_hex.flat().length);
    });

    it('generates the published inclusion and consistency proofs from stored subtrees', async () => {
      for (const v of ref.inclusion) {
        expect(inclusionProof(v.leaf_index, v.tree_size, getNode).map(toHex)).toEqual(v.proof_hex);
        const viaAsync = await inclusionProof(v.leaf_index, v.tree_size, async (l, i) =>
          getNode(l, i),
        );
        expect(viaAsync.map(toHex)).toEqual(v.proof_hex);
        expect(
          verifyInclusion(
            v.leaf_index,
            v.tree_size,
            leaves[v.leaf_index]!,
            v.proof_hex.map(hex),
            hex(v.root_hex),
          ),
        ).toBe(true);
      }
      for (const v of ref.consistency) {
        expect(consistencyProof(v.first, v.second, getNode).map(toHex)).toEqual(v.proof_hex);
      }
    });

    it('verifies every generated proof for trees of 1 to 8 leaves', () => {
      for (let n = 1; n <= 8; n += 1) {
        const root = rootAt(n, getNode);
        for (let m = 0; m < n; m += 1) {
          expect(verifyInclusion(m, n, leaves[m]!, inclusionProof(m, n, getNode), root)).toBe(true);
        }
        for (let m = 1; m <= n; m += 1) {
          const proof = consistencyProof(m, n, getNode);
          expect(verifyConsistency(m, n, proof, rootAt(m, getNode), root)).toBe(true);
        }
      }
    });
  },
);

describe.skipIf(probes === undefined)('RFC 6962 probes, valid and corrupted', () => {
  const all: Probes = probes ?? { inclusion: [], consistency: [] };
  it.each(all.inclusion.map((p) => [`${p.source_file} (${p.desc})`, p] as const))(
    'inclusion %s',
    (_name, p) => {
      const ok = verifyInclusion(
        p.leaf_index,
        p.tree_size,
        hex(p.leaf_hash_hex),
        p.proof_hex.map(hex),
        hex(p.root_hex),
      );
      expect(ok).toBe(!p.want_error);
    },
  );
  it.each(all.consistency.map((p) => [`${p.source_file} (${p.desc})`, p] as const))(
    'consistency %s',
    (_name, p) => {
      const ok = verifyConsistency(
        p.first,
        p.second,
        p.proof_hex.map(hex),
        hex(p.first_root_hex),
        hex(p.second_root_hex),
      );
      expect(ok).toBe(!p.want_error);
    },
  );
});
