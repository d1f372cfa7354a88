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

/**
 * A tree's size and its right edge: the complete subtree at each level where the size has a bit
 * set, node (level, (size >> level) - 1), which is what an append starts from.
 */
export interface MerkleTail {
  size: number;
  nodes: MerkleNode[];
}

export interface MerkleStorage {
  /** The number of leaves of the tree (0 when it has none): one row of the primary key. */
  size(orgId: string, log: string): Promise<number>;
  /**
   * The number of leaves and the right edge, in one query (one probe of the primary key for the
   * size, one point lookup per node of the edge), so an append that does not know the size reads
   * it and its edge at once.
   */
  tail(orgId: string, log: string): Promise<MerkleTail>;
  /** The stored nodes among `ids`, in any order; a node not stored is left out. */
  nodes(orgId: string, log: string, ids: readonly MerkleNodeId[]): Promise<MerkleNode[]>;
  /** Inserts new nodes; a node already stored throws (the primary key), so two appends never fork. */
  insert(orgId: string, log: string, nodes: readonly MerkleNode[]): Promise<void>;
  /**
   * Tells the engine's planner how large the trees now are, after a bulk append (the start-up
   * backfill): PostgreSQL analyzes the node table; SQLite, which plans by its indexes, does nothing.
   */
  refreshStatistics(): Promise<void>;
}
