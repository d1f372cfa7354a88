import type { ChainHead } from '../ports/run-storage.js';
import type { Repositories, Storage } from '../ports/storage.js';

/** Rows per read transaction while verifying or exporting: short transactions, bounded memory. */
export const LEDGER_CHUNK = 500;

/** One chain's keyset read: rows with afterSeq < org_seq <= uptoSeq, ascending, at most `limit`. */
type ChunkRead<R> = (
  tx: Repositories,
  afterSeq: number,
  uptoSeq: number,
  limit: number,
) => Promise<R[]>;

/**
 * Reads a chain (the run ledger or the audit chain) up to `head` chunk by chunk, each chunk in its
 * own short read transaction, so an export of any length holds no transaction open for long.
 */
export async function* chainChunks<R extends { org_seq: number }>(
  storage: Storage,
  head: ChainHead,
  read: ChunkRead<R>,
): AsyncGenerator<R[]> {
  let after = -1;
  for (;;) {
    const rows = await storage.read((tx) => read(tx, after, head.org_seq, LEDGER_CHUNK));
    const last = rows.at(-1);
    if (last === undefined) return;
    yield rows;
    after = last.org_seq;
  }
}
