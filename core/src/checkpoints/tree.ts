import {
  CompactTree,
  consistencyPlan,
  consistencyProof as foldConsistency,
  inclusionPlan,
  inclusionProof as foldInclusion,
  leafHash,
  rangeNodes,
  rootAt,
  type NodeId,
} from '@runledger/verify/merkle';
import type { MerkleNode, MerkleTail } from '../ports/merkle-storage.js';
import type { Repositories } from '../ports/storage.js';

/**
 * One RFC 9162 tree per (organization, log) over the stored complete subtrees (MerkleStorage).
 * Appending reads the tree's right edge (at most log2 n nodes, one query) and inserts the nodes the
 * new leaves complete; proofs and roots fetch exactly the nodes their plan lists, in one query, and
 * fold them with the verify package's functions, so the server and every verifier share one code.
 */

/** Names of the logs: the receipt chain's tree. Other features name their own (e.g. `audit`). */
export const LEDGER_LOG = 'ledger';

export interface TreeHead {
  size: number;
  root: Uint8Array;
}

type Tx = Pick<Repositories, 'merkle'>;

const key = (level: number, index: number) => `${level}/${index}`;

/** A synchronous lookup among `nodes` that throws on a node not among them. */
function lookupIn(orgId: string, log: string, nodes: readonly MerkleNode[]) {
  const found = new Map<string, Uint8Array>();
  for (const node of nodes) found.set(key(node.level, node.index), node.hash);
  return (level: number, index: number): Uint8Array => {
    const hash = found.get(key(level, index));
    if (hash === undefined) {
      throw new Error(`merkle tree ${orgId}/${log}: node ${level}/${index} is not stored`);
    }
    return hash;
  };
}

/** Fetches the nodes of `ids` in one query; a synchronous lookup that throws on a missing node. */
async function lookup(tx: Tx, orgId: string, log: string, ids: readonly NodeId[]) {
  const unique = [...new Map(ids.map((id) => [key(id.level, id.index), id])).values()];
  return lookupIn(orgId, log, await tx.merkle.nodes(orgId, log, unique));
}

/**
 * The tree's size and the last node of each level, in one query: all an append needs to know. Read
 * it under the lock that orders the log's appends, then append with appendLeavesAfter.
 */
export function treeTail(tx: Tx, orgId: string, log: string): Promise<MerkleTail> {
  return tx.merkle.tail(orgId, log);
}

/**
 * Appends leaves to a tree whose tail (treeTail) this transaction read under the log's lock:
 * inserts only, no read. See appendLeaves.
 */
export async function appendLeavesAfter(
  tx: Tx,
  orgId: string,
  log: string,
  tail: MerkleTail,
  leaves: readonly Uint8Array[],
): Promise<TreeHead> {
  return grow(
    tx,
    orgId,
    log,
    CompactTree.load(tail.size, lookupIn(orgId, log, tail.nodes)),
    leaves,
  );
}

async function grow(
  tx: Tx,
  orgId: string,
  log: string,
  tree: CompactTree,
  leaves: readonly Uint8Array[],
): Promise<TreeHead> {
  const created: MerkleNode[] = [];
  for (const leaf of leaves) created.push(...tree.append(leafHash(leaf)));
  if (created.length > 0) await tx.merkle.insert(orgId, log, created);
  return { size: tree.size, root: tree.root() };
}

/**
 * Appends leaves (their data: the tree hashes SHA-256(0x00 ‖ data)) to the log's tree inside a
 * write transaction. The caller holds the lock that orders this log's appends (for `ledger`,
 * lockKeys.chain(orgId), the chain's own lock), so the tree grows in the chain's order; the
 * primary key refuses a second writer that did not. Returns the new size and root.
 *
 * `size` is the tree's size as the caller already knows it (the first new leaf's org_seq when leaf
 * i is the chain's org_seq i), which saves reading it. A tree of another size is refused, never
 * grown out of order: a shorter one lacks a node of the right edge (the lookup throws), a longer
 * one already holds the new leaf (the primary key refuses the insert).
 */
export async function appendLeaves(
  tx: Tx,
  orgId: string,
  log: string,
  leaves: readonly Uint8Array[],
  size?: number,
): Promise<TreeHead> {
  if (size === undefined)
    return appendLeavesAfter(tx, orgId, log, await treeTail(tx, orgId, log), leaves);
  const tree = CompactTree.load(size, await lookup(tx, orgId, log, rangeNodes(0, size)));
  return grow(tx, orgId, log, tree, leaves);
}

/** Appends one leaf: see appendLeaves. */
export function appendLeaf(
  tx: Tx,
  orgId: string,
  log: string,
  leafData: Uint8Array,
  size?: number,
): Promise<TreeHead> {
  return appendLeaves(tx, orgId, log, [leafData], size);
}

/** The number of leaves in the log's tree. */
export function treeSize(tx: Tx, orgId: string, log: string): Promise<number> {
  return tx.merkle.size(orgId, log);
}

/** The root of the first `size` leaves (size ≤ the stored size): at most log2(size) nodes. */
export async function treeRootAt(
  tx: Tx,
  orgId: string,
  log: string,
  size: number,
): Promise<Uint8Array> {
  return rootAt(size, await lookup(tx, orgId, log, rangeNodes(0, size)));
}

/** The audit path of leaf `leafIndex` in the tree of `size` leaves (RangeError when out of range). */
export async function inclusionProofAt(
  tx: Tx,
  orgId: string,
  log: string,
  leafIndex: number,
  size: number,
): Promise<Uint8Array[]> {
  const plan = inclusionPlan(leafIndex, size);
  return foldInclusion(leafIndex, size, await lookup(tx, orgId, log, plan.flat()));
}

/** The proof that tree `second` extends tree `first` (RangeError unless 0 < first ≤ second). */
export async function consistencyProofAt(
  tx: Tx,
  orgId: string,
  log: string,
  first: number,
  second: number,
): Promise<Uint8Array[]> {
  const plan = consistencyPlan(first, second);
  return foldConsistency(first, second, await lookup(tx, orgId, log, plan.flat()));
}
