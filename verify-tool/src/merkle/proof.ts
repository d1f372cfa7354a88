import {
  isTreeSize,
  rangeNodes,
  resolveGroups,
  splitPoint,
  type NodeId,
  type NodeLookup,
  type Resolved,
} from './nodes.js';

/**
 * Proof generation from stored complete subtrees. Each proof hash is the RFC 9162 hash of a range
 * of leaves; a plan lists, per proof hash, the complete subtrees it folds from (one node, except
 * for the one range on the tree's right edge that is not complete). A store can fetch a whole plan
 * in one query; inclusionProof and consistencyProof do the lookups and folds.
 */

/** RFC 9162 section 2.1.3.1 PATH(m, D[n]), as ranges of complete subtrees, bottom-up. */
export function inclusionPlan(leafIndex: number, treeSize: number): NodeId[][] {
  if (!isTreeSize(treeSize) || !isTreeSize(leafIndex) || leafIndex >= treeSize) {
    throw new RangeError(`no leaf ${leafIndex} in a tree of ${treeSize}`);
  }
  const plan: NodeId[][] = [];
  let start = 0;
  let end = treeSize;
  while (end - start > 1) {
    const k = splitPoint(end - start);
    if (leafIndex - start < k) {
      plan.push(rangeNodes(start + k, end));
      end = start + k;
    } else {
      plan.push(rangeNodes(start, start + k));
      start += k;
    }
  }
  return plan.reverse();
}

/** RFC 9162 section 2.1.4.1 PROOF(m, D[n]) for 0 < m ≤ n, as ranges of complete subtrees, bottom-up. */
export function consistencyPlan(first: number, second: number): NodeId[][] {
  if (!isTreeSize(second) || !isTreeSize(first) || first < 1 || first > second) {
    throw new RangeError(`no consistency proof from ${first} to ${second}`);
  }
  const plan: NodeId[][] = [];
  let start = 0;
  let end = second;
  let whole = true; // the RFC's b: the first tree is a complete subtree the verifier already holds
  for (;;) {
    if (first === end) {
      if (!whole) plan.push(rangeNodes(start, end));
      break;
    }
    const k = splitPoint(end - start);
    if (first - start <= k) {
      plan.push(rangeNodes(start + k, end));
      end = start + k;
    } else {
      plan.push(rangeNodes(start, start + k));
      start += k;
      whole = false;
    }
  }
  return plan.reverse();
}

/** The inclusion proof (audit path) of leaf `leafIndex` in the tree of `treeSize` leaves. */
export function inclusionProof<H extends Uint8Array | Promise<Uint8Array>>(
  leafIndex: number,
  treeSize: number,
  getNode: NodeLookup<H>,
): Resolved<H, Uint8Array[]> {
  return resolveGroups(inclusionPlan(leafIndex, treeSize), getNode);
}

/** The proof that the tree of `second` leaves extends the tree of `first` leaves. */
export function consistencyProof<H extends Uint8Array | Promise<Uint8Array>>(
  first: number,
  second: number,
  getNode: NodeLookup<H>,
): Resolved<H, Uint8Array[]> {
  return resolveGroups(consistencyPlan(first, second), getNode);
}
