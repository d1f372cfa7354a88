import type { MerkleNode, MerkleStorage, MerkleTail } from '@runledger/core/ports';
import { rangeNodes } from '@runledger/verify/merkle';

const treeKey = (orgId: string, log: string) => `${orgId}\u0000${log}`;

/** What a tree's copy is in one scope: its tail, or `null` once it is not known (read it again). */
type Copies = Map<string, MerkleTail | null>;

/**
 * The writer's copy of each Merkle tree's right edge (its tail), so an append does not read the
 * tail back from the database each batch (two queries of about 50 µs in every batch of mints). The
 * copy is kept where the database is: an append's new tail goes into its savepoint's scope, into
 * the batch's when that savepoint is released, and into the committed copies only once the batch's
 * COMMIT succeeded. A savepoint rolled back drops its scope; a batch that failed drops every copy.
 * Another connection's commit (a second server on the same file, a maintenance command) changes
 * `PRAGMA data_version`, read in each batch under the write lock; every copy is then dropped.
 * A tree with no copy, or whose copy cannot follow an insert, is read from the database.
 */
export class MerkleTails {
  private committed: Copies = new Map();
  private batch: Copies = new Map();
  private savepoint: Copies = new Map();
  private dataVersion: number | null = null;
  private readonly counts = { served: 0, read: 0 };

  /** `readDataVersion` reads the writer's `PRAGMA data_version` (connection.ts). */
  constructor(private readonly readDataVersion: () => Promise<number>) {}

  /** Tails served from the copy and read from the database, for tests and the bench. */
  get stats(): { served: number; read: number } {
    return { ...this.counts };
  }

  /** A batch began, under the write lock: another connection's commit since drops every copy. */
  async began(): Promise<void> {
    const version = await this.readDataVersion();
    if (version !== this.dataVersion) this.committed.clear();
    this.dataVersion = version;
  }

  /** A savepoint ended: its copies join the batch's when it was kept. */
  savepointEnded(kept: boolean): void {
    if (kept) for (const [key, tail] of this.savepoint) this.batch.set(key, tail);
    this.savepoint = new Map();
  }

  /**
   * A batch ended: its copies become the committed ones when its COMMIT (and the log's sync)
   * succeeded. A batch that failed may have failed after its COMMIT (the sync): every copy goes.
   */
  batchEnded(committed: boolean): void {
    if (committed) for (const [key, tail] of this.batch) this.committed.set(key, tail);
    else this.committed.clear();
    this.batch = new Map();
    this.savepoint = new Map();
  }

  /** The writer's MerkleStorage: `tail` from the copy when there is one, `insert` keeping it. */
  around(inner: MerkleStorage): MerkleStorage {
    return {
      ...inner,
      tail: async (orgId, log) => {
        const key = treeKey(orgId, log);
        const copy = this.copyOf(key);
        if (copy !== null) {
          this.counts.served += 1;
          return { size: copy.size, nodes: [...copy.nodes] };
        }
        this.counts.read += 1;
        const tail = await inner.tail(orgId, log);
        this.savepoint.set(key, { size: tail.size, nodes: [...tail.nodes] });
        return tail;
      },
      insert: async (orgId, log, nodes) => {
        const key = treeKey(orgId, log);
        const before = this.copyOf(key);
        // Forgotten first: if the insert fails, the savepoint fails with it.
        this.savepoint.set(key, null);
        await inner.insert(orgId, log, nodes);
        this.savepoint.set(key, before === null ? null : tailAfter(before, nodes));
      },
    };
  }

  private copyOf(key: string): MerkleTail | null {
    for (const scope of [this.savepoint, this.batch, this.committed]) {
      const copy = scope.get(key);
      if (copy !== undefined) return copy;
    }
    return null;
  }
}

/**
 * The tail after `nodes` were inserted into a tree whose tail was `before`, or null when `nodes`
 * do not append leaves right after it. Every node of the new right edge is either new or was on the
 * old edge: a node of the new edge covering only old leaves is a leading term of both sizes'
 * binary decompositions.
 */
export function tailAfter(before: MerkleTail, nodes: readonly MerkleNode[]): MerkleTail | null {
  const leaves = nodes.filter((n) => n.level === 0).map((n) => n.index);
  leaves.sort((a, b) => a - b);
  if (leaves.some((index, i) => index !== before.size + i)) return null;
  const size = before.size + leaves.length;
  const known = new Map<string, MerkleNode>();
  for (const node of [...before.nodes, ...nodes]) known.set(`${node.level}/${node.index}`, node);
  // rangeNodes lists the edge's complete subtrees highest first; a tail holds them lowest first.
  const edge: MerkleNode[] = [];
  for (const { level, index } of rangeNodes(0, size).reverse()) {
    const node = known.get(`${level}/${index}`);
    if (node === undefined) return null;
    edge.push(node);
  }
  return { size, nodes: edge };
}
