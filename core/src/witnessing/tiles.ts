import { fromHex } from '@runledger/verify/hash';
import type { Repositories } from '../ports/storage.js';
import { LEDGER_LOG } from '../checkpoints/tree.js';
import { TILE_WIDTH, type TilePath } from './tile-path.js';

/**
 * The bytes of C2SP tlog-tiles resources, read from the stored complete subtrees (MerkleStorage):
 * hash `i` of tile (L, N) is the node at Merkle level 8·L, index N·256 + i, a complete subtree of
 * 256^L leaves, so a tile is exactly its width of stored nodes. An entry bundle holds each leaf's
 * data, the receipt's 32-byte SHA-256, as a big-endian uint16 length then the bytes.
 */

/** The logs served as tiles: the receipt chain and the audit chain (AUDIT_LOG). */
export const TILED_LOGS = [LEDGER_LOG, 'audit'] as const;
export type TiledLog = (typeof TILED_LOGS)[number];

type Tx = Pick<Repositories, 'merkle' | 'receipts' | 'auditReceipts'>;

/** The number of leaves a tile needs to exist, or null beyond any tree this service can hold. */
function leavesNeeded(path: TilePath): number | null {
  const level = path.kind === 'hashes' ? path.level : 0;
  const width = path.width ?? TILE_WIDTH;
  const needed = (path.index * TILE_WIDTH + width) * TILE_WIDTH ** level;
  return Number.isSafeInteger(needed) ? needed : null;
}

/**
 * Whether the tree of `size` leaves has this tile. A partial tile of width W stays served once the
 * tree passed it: its bytes never change, so it is as cacheable as a full one.
 */
export function tileExists(path: TilePath, size: number): boolean {
  const needed = leavesNeeded(path);
  return needed !== null && needed <= size;
}

async function hashTile(tx: Tx, orgId: string, log: string, path: TilePath & { kind: 'hashes' }) {
  const width = path.width ?? TILE_WIDTH;
  const first = path.index * TILE_WIDTH;
  const ids = Array.from({ length: width }, (_, i) => ({
    level: 8 * path.level,
    index: first + i,
  }));
  const nodes = await tx.merkle.nodes(orgId, log, ids);
  const out = new Uint8Array(32 * width);
  for (const node of nodes) out.set(node.hash, 32 * (node.index - first));
  if (nodes.length !== width) throw new Error(`tile ${orgId}/${log}: nodes missing`);
  return out;
}

async function entryBundle(tx: Tx, orgId: string, log: TiledLog, path: TilePath) {
  const width = path.width ?? TILE_WIDTH;
  const first = path.index * TILE_WIDTH;
  const rows =
    log === LEDGER_LOG
      ? await tx.receipts.entries(orgId, first - 1, width)
      : await tx.auditReceipts.chunk(orgId, first - 1, first + width - 1, width);
  if (rows.length !== width || rows[0]?.org_seq !== first)
    throw new Error(`entry bundle ${orgId}/${log}: receipts missing`);
  const out = new Uint8Array(34 * width);
  rows.forEach((row, i) => {
    out[34 * i + 1] = 32;
    out.set(fromHex(row.receipt_sha256) as Uint8Array, 34 * i + 2);
  });
  return out;
}

/** The resource's bytes, or null when the tree of `size` leaves does not have it. */
export async function tileBytes(
  tx: Tx,
  orgId: string,
  log: TiledLog,
  path: TilePath,
  size: number,
): Promise<Uint8Array | null> {
  if (!tileExists(path, size)) return null;
  return path.kind === 'hashes'
    ? hashTile(tx, orgId, log, path)
    : entryBundle(tx, orgId, log, path);
}
