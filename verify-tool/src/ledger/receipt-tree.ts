import { fromHex } from '../hash/hex.js';
import { CompactTree } from '../merkle/compact.js';
import { HASH_SIZE, leafHashOfHex } from '../merkle/hash.js';

/** Leaf data of a receipt: the 32 raw bytes of its receipt_sha256 (lowercase hex). */
export function receiptLeaf(receiptSha256: string): Uint8Array {
  // A malformed hash is already a finding of its own; it still takes its place in the tree.
  const bytes = receiptSha256.length === 2 * HASH_SIZE ? fromHex(receiptSha256) : null;
  return bytes ?? new Uint8Array(HASH_SIZE);
}

/** The tree's leaf hash of a receipt: SHA-256(0x00 ‖ the 32 bytes of its receipt_sha256). */
export function receiptLeafHash(receiptSha256: unknown): Uint8Array {
  // A malformed hash is a finding of its own; it still takes its place in the tree, as zeros.
  return leafHashOfHex(typeof receiptSha256 === 'string' ? receiptSha256 : '');
}

/** An organization's receipt tree grown in org_seq order, for streaming verification. */
export class ReceiptTree {
  readonly #tree = CompactTree.empty();

  add(receiptSha256: unknown): void {
    this.#tree.push(receiptLeafHash(receiptSha256));
  }

  /** Adds a leaf already hashed with receiptLeafHash (by a worker thread, say). */
  addLeafHash(hash: Uint8Array): void {
    this.#tree.push(hash);
  }

  get size(): number {
    return this.#tree.size;
  }

  root(): Uint8Array {
    return this.#tree.root();
  }
}
