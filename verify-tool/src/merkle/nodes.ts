import { nodeHash } from './hash.js';

/**
 * A complete subtree of the tree: node (level, index) covers leaves [index·2^level, (index+1)·2^level).
 * Level 0 holds the leaf hashes. Only complete subtrees ever change from "absent" to a fixed hash,
 * so they are what a store keeps as the tree grows; every other hash is computed from them.
 */
export interface NodeId {
  level: number;
  index: number;
}

/** A stored complete-subtree hash, as CompactTree.append reports them. */
export interface TreeNode extends NodeId {
  hash: Uint8Array;
}

/** Looks up the hash of a complete subtree, synchronously or not. */
export type NodeLookup<H extends Uint8Array | Promise<Uint8Array>> = (
  level: number,
  index: number,
) => H;

/** Result type of a computation over a NodeLookup: a promise when the lookup answers with one. */
export type Resolved<H, T> = H extends Promise<Uint8Array> ? Promise<T> : T;

/** Tree sizes and indexes are plain numbers, so they stay exact only as safe integers. */
export function isTreeSize(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

/** The largest power of two strictly smaller than n (n > 1): the RFC 9162 split point. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The complete subtrees, left to right, whose fold is the RFC 9162 hash of leaves [start, end):
 * the binary decomposition of the range (start is aligned, as in every range the RFC recursion visits).
 */
export function rangeNodes(start: number, end: number): NodeId[] {
  const nodes: NodeId[] = [];
  let at = start;
  while (at < end) {
    const k = largestPow2AtMost(end - at);
    nodes.push({ level: Math.log2(k), index: at / k });
    at += k;
  }
  return nodes;
}

function largestPow2AtMost(n: number): number {
  let k = 1;
  while (k * 2 <= n) k *= 2;
  return k;
}

/** Folds complete-subtree hashes (left to right, decreasing sizes) into the hash of their range. */
export function foldRange(hashes: readonly Uint8Array[]): Uint8Array {
  let hash = hashes[hashes.length - 1] as Uint8Array;
  for (let i = hashes.length - 2; i >= 0; i -= 1) hash = nodeHash(hashes[i] as Uint8Array, hash);
  return hash;
}

function isPromise<T>(value: unknown): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Looks up every node of `groups` (each group folds into one hash) and folds each group; sync when
 * the lookup is, one Promise.all otherwise. Each distinct node is asked for once.
 */
export function resolveGroups<H extends Uint8Array | Promise<Uint8Array>>(
  groups: readonly (readonly NodeId[])[],
  getNode: NodeLookup<H>,
): Resolved<H, Uint8Array[]> {
  const seen = new Map<string, H>();
  const answers = groups.map((group) =>
    group.map((id) => {
      const key = `${id.level}/${id.index}`;
      let answer = seen.get(key);
      if (answer === undefined) {
        answer = getNode(id.level, id.index);
        seen.set(key, answer);
      }
      return answer;
    }),
  );
  const fold = (hashes: Uint8Array[][]) => hashes.map(foldRange);
  if ([...seen.values()].some(isPromise)) {
    return Promise.all(answers.map((group) => Promise.all(group))).then(fold) as Resolved<
      H,
      Uint8Array[]
    >;
  }
  return fold(answers as Uint8Array[][]) as Resolved<H, Uint8Array[]>;
}
