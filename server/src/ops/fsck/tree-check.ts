import type { DeploymentScan } from '@runledger/adapters';
import { EMPTY_ROOT, leafHash, nodeHash } from '@runledger/verify/merkle';
import { receiptLeaf } from '@runledger/verify/ledger';
import { toHex } from '@runledger/verify/hash';
import type { Findings } from './findings.js';

/** Levels a tree can have (merkle_nodes.level < 64). */
const LEVELS = 64;

interface Expected {
  idx: number;
  hash: Uint8Array;
}

/**
 * Rebuilds one log's Merkle tree from its receipts, leaf by leaf, and compares every complete
 * subtree it makes with the node stored for it, level by level in index order (each level read in
 * keyset pages of the primary key). The root as of any size is kept on request (a signed
 * checkpoint's). Stored nodes past the receipts are findings too: a tree longer than its chain.
 */
export class TreeCheck {
  #size = 0;
  /** The right edge: complete subtrees not yet joined, lowest level last. */
  readonly #edge: Array<{ level: number; hash: Uint8Array }> = [];
  readonly #made: Map<number, Expected[]> = new Map();
  readonly #next: number[] = new Array<number>(LEVELS).fill(0);
  readonly #rootsAt = new Map<number, Uint8Array>();
  nodesChecked = 0;

  constructor(
    private readonly scan: DeploymentScan,
    private readonly where: { orgId: string; log: string },
    private readonly findings: Findings,
    private readonly wantRootAt: number | null,
  ) {}

  /** Adds the next receipt's leaf (its stored receipt_sha256, as the server's tree holds it). */
  add(receiptSha256: string): void {
    this.#size += 1;
    this.#make(0, leafHash(receiptLeaf(receiptSha256)));
    let top = this.#edge.at(-1);
    while (this.#edge.length >= 2 && this.#edge.at(-2)!.level === top!.level) {
      const right = this.#edge.pop()!;
      const left = this.#edge.pop()!;
      this.#make(left.level + 1, nodeHash(left.hash, right.hash));
      top = this.#edge.at(-1);
    }
    if (this.#size === this.wantRootAt) this.#rootsAt.set(this.wantRootAt, this.root());
  }

  #make(level: number, hash: Uint8Array): void {
    this.#edge.push({ level, hash });
    const idx = this.#next[level]!;
    this.#next[level] = idx + 1;
    let list = this.#made.get(level);
    if (list === undefined) this.#made.set(level, (list = []));
    list.push({ idx, hash });
  }

  get size(): number {
    return this.#size;
  }

  /** RFC 9162's root of the leaves so far: the right edge's subtrees folded from the right. */
  root(): Uint8Array {
    let hash = this.#edge.at(-1)?.hash;
    if (hash === undefined) return EMPTY_ROOT;
    for (let i = this.#edge.length - 2; i >= 0; i -= 1) hash = nodeHash(this.#edge[i]!.hash, hash);
    return hash;
  }

  rootAt(size: number): Uint8Array | undefined {
    return size === 0 ? EMPTY_ROOT : this.#rootsAt.get(size);
  }

  /** Compares the nodes made since the last call with the stored ones. */
  async compare(): Promise<void> {
    for (const [level, made] of this.#made) {
      if (made.length === 0) continue;
      const first = made[0]!.idx;
      const stored = await this.scan.nodesPage(
        this.where.orgId,
        this.where.log,
        level,
        first - 1,
        made.length,
      );
      const byIdx = new Map(stored.map((n) => [n.idx, n.hash]));
      for (const node of made) this.#compareOne(level, node, byIdx.get(node.idx));
      this.nodesChecked += made.length;
      made.length = 0;
    }
  }

  #compareOne(level: number, node: Expected, stored: string | undefined): void {
    const at = {
      organization: this.where.orgId,
      log: this.where.log,
      node: { level, index: node.idx },
    };
    if (stored === undefined) {
      this.findings.add({
        ...at,
        code: 'node_missing',
        message: 'the tree has no node for these receipts',
      });
    } else if (stored !== toHex(node.hash)) {
      this.findings.add({
        ...at,
        code: 'node_mismatch',
        message: 'the stored hash differs from the one the receipts give',
      });
    }
  }

  /** After the last receipt: any stored node past what the receipts make is a finding. */
  async finish(): Promise<void> {
    await this.compare();
    // A tree of n leaves has levels up to log2 n; one above them is probed for a longer tree.
    const top = this.#next.findLastIndex((n) => n > 0) + 1;
    for (let level = 0; level <= Math.min(top, LEVELS - 1); level += 1) {
      const [extra] = await this.scan.nodesPage(
        this.where.orgId,
        this.where.log,
        level,
        this.#next[level]! - 1,
        1,
      );
      if (extra === undefined) continue;
      this.findings.add({
        organization: this.where.orgId,
        log: this.where.log,
        node: { level, index: extra.idx },
        code: 'node_beyond_chain',
        message: `the tree has nodes past the chain's ${this.size} receipts`,
      });
    }
  }
}
