import { HASH_SIZE, bytesEqual, nodeHash } from './hash.js';
import { isTreeSize } from './nodes.js';

/*
 * Proof verification, RFC 9162 sections 2.1.3.2 and 2.1.4.2, with the same preconditions as the
 * reference implementation (transparency-dev/merkle) so that its test probes pass and fail alike.
 * Sizes are numbers; anything that is not a safe integer is rejected rather than rounded.
 */

const odd = (n: number) => n % 2 === 1;
const half = (n: number) => Math.floor(n / 2);

/**
 * The root an inclusion proof leads to, or null when the proof has the wrong shape for the index
 * and size (too many or too few hashes, index out of range).
 */
export function rootFromInclusionProof(
  leafIndex: number,
  treeSize: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
): Uint8Array | null {
  if (!isTreeSize(leafIndex) || !isTreeSize(treeSize) || leafIndex >= treeSize) return null;
  if (leaf.length !== HASH_SIZE) return null;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return null;
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!odd(fn)) {
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? r : null;
}

/** True when `proof` proves leaf hash `leaf` is leaf `leafIndex` of the tree with this root. */
export function verifyInclusion(
  leafIndex: number,
  treeSize: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  const computed = rootFromInclusionProof(leafIndex, treeSize, leaf, proof);
  return computed !== null && bytesEqual(computed, root);
}

/** True when `proof` proves the tree (second, secondRoot) extends the tree (first, firstRoot). */
export function verifyConsistency(
  first: number,
  second: number,
  proof: readonly Uint8Array[],
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
): boolean {
  if (!isTreeSize(first) || !isTreeSize(second) || second < first || first === 0) return false;
  if (first === second) return proof.length === 0 && bytesEqual(firstRoot, secondRoot);
  if (proof.length === 0) return false;
  // When the first tree is a complete subtree, its root is the proof's implicit first element.
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0] as Uint8Array;
  let sr = fr;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!odd(fn)) {
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && bytesEqual(fr, firstRoot) && bytesEqual(sr, secondRoot);
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}
