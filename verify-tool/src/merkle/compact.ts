import { EMPTY_ROOT, nodeHash } from './hash.js';
import {
  foldRange,
  isTreeSize,
  rangeNodes,
  resolveGroups,
  type NodeLookup,
  type Resolved,
  type TreeNode,
} from './nodes.js';

/**
 * The right edge of a growing tree: the hashes of the complete subtrees that make up leaves
 * [0, size), largest first (one per set bit of size). Appending a leaf is O(log n) hashes and the
 * root is O(log n) more, so a server can keep one per organization and a verifier can stream.
 */
export class CompactTree {
  #size: number;
  readonly #edge: Uint8Array[];

  private constructor(size: number, edge: Uint8Array[]) {
    this.#size = size;
    this.#edge = edge;
  }

  static empty(): CompactTree {
    return new CompactTree(0, []);
  }

  /** Restores the tree of `size` leaves from its stored complete subtrees (see rangeNodes). */
  static load<H extends Uint8Array | Promise<Uint8Array>>(
    size: number,
    getNode: NodeLookup<H>,
  ): Resolved<H, CompactTree> {
    if (!isTreeSize(size)) throw new RangeError(`tree size ${size} is not a safe integer ≥ 0`);
    const groups = rangeNodes(0, size).map((id) => [id]);
    const edge = resolveGroups(groups, getNode) as Uint8Array[] | Promise<Uint8Array[]>;
    return (
      edge instanceof Promise
        ? edge.then((hashes) => new CompactTree(size, hashes))
        : new CompactTree(size, edge)
    ) as Resolved<H, CompactTree>;
  }

  get size(): number {
    return this.#size;
  }

  /**
   * Appends one leaf hash (see leafHash) and returns the complete subtrees it completes: the leaf
   * itself at level 0 and every parent that became complete, which is what a store keeps.
   */
  append(leaf: Uint8Array): TreeNode[] {
    const created: TreeNode[] = [{ level: 0, index: this.#size, hash: leaf }];
    let hash = leaf;
    let index = this.#size;
    let level = 0;
    while (index % 2 === 1) {
      hash = nodeHash(this.#edge.pop() as Uint8Array, hash);
      index = (index - 1) / 2;
      level += 1;
      created.push({ level, index, hash });
    }
    this.#edge.push(hash);
    this.#size += 1;
    return created;
  }

  /** Appends without reporting the created nodes (a verifier's streaming path). */
  push(leaf: Uint8Array): void {
    let hash = leaf;
    let index = this.#size;
    while (index % 2 === 1) {
      hash = nodeHash(this.#edge.pop() as Uint8Array, hash);
      index = (index - 1) / 2;
    }
    this.#edge.push(hash);
    this.#size += 1;
  }

  /** The RFC 9162 root of the leaves so far (the empty root for none). */
  root(): Uint8Array {
    return this.#edge.length === 0 ? EMPTY_ROOT : foldRange(this.#edge);
  }
}

/** The root of the first `size` leaves from stored complete subtrees: at most log2(size) lookups. */
export function rootAt<H extends Uint8Array | Promise<Uint8Array>>(
  size: number,
  getNode: NodeLookup<H>,
): Resolved<H, Uint8Array> {
  if (!isTreeSize(size)) throw new RangeError(`tree size ${size} is not a safe integer ≥ 0`);
  if (size === 0) return EMPTY_ROOT as Resolved<H, Uint8Array>;
  const roots = resolveGroups([rangeNodes(0, size)], getNode) as
    Uint8Array[] | Promise<Uint8Array[]>;
  return (
    roots instanceof Promise ? roots.then((r) => r[0] as Uint8Array) : (roots[0] as Uint8Array)
  ) as Resolved<H, Uint8Array>;
}

/** The root of a list of leaf hashes, for tests and small trees. */
export function merkleRoot(leaves: Iterable<Uint8Array>): Uint8Array {
  const tree = CompactTree.empty();
  for (const leaf of leaves) tree.push(leaf);
  return tree.root();
}
