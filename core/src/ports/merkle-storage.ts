/**
 * The Merkle trees of docs/checkpoints.md: one RFC 9162 tree per (organization, log). `log` names
 * the tree (`ledger` for the receipt chain; other features add their own, such as `audit`). The
 * store keeps only complete subtrees, node (level, index) covering leaves
 * [index·2^level, (index+1)·2^level); they never change once written, so every proof is folded
 * from them. Callers append under the lock that orders that log (core/src/checkpoints).
 */
export interface MerkleNodeId {
  level: number;
  index: number;
}

/** A complete subtree's 32-byte SHA-256. */
export interface MerkleNode extends MerkleNodeId {
  hash: Uint8Array;
}

export interface MerkleStorage {
  /** The number of leaves of the tree (0 when it has none): one row of the primary key. */
  size(orgId: string, log: string): Promise<number>;
  /** The stored nodes among `ids`, in any order; a node not stored is left out. */
  nodes(orgId: string, log: string, ids: readonly MerkleNodeId[]): Promise<MerkleNode[]>;
  /** Inserts new nodes; a node already stored throws (the primary key), so two appends never fork. */
  insert(orgId: string, log: string, nodes: readonly MerkleNode[]): Promise<void>;
}
