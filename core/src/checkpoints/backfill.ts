import { receiptLeaf } from '@runledger/verify/ledger';
import { lockKeys } from '../ports/lock-keys.js';
import type { Storage } from '../ports/storage.js';
import { LEDGER_LOG, appendLeaves } from './tree.js';

/** Receipts appended per write transaction while catching a tree up: short transactions. */
const BACKFILL_CHUNK = 1000;

/**
 * Builds the `ledger` tree of every organization whose receipts were minted before its tree
 * existed (databases from before migration 6), in org_seq order, under the chain lock so it
 * interleaves safely with live mints on any instance. Idempotent: a tree already as long as its
 * chain is left alone, so every start may run it. After appending, the engine's statistics of the
 * trees are refreshed (MerkleStorage.refreshStatistics). Returns the number of leaves appended.
 */
export async function backfillLedgerTrees(storage: Storage): Promise<number> {
  // One read finds the trees shorter than their chains; a start with every tree complete (the usual
  // case) then writes nothing, instead of one write transaction per organization.
  const lagging = await storage.read(async (tx) => {
    const behind: string[] = [];
    for (const { org_id: orgId, count } of await tx.receipts.counts()) {
      if ((await tx.merkle.size(orgId, LEDGER_LOG)) < count) behind.push(orgId);
    }
    return behind;
  });
  let appended = 0;
  for (const orgId of lagging) {
    for (;;) {
      const added = await storage.write(async (tx) => {
        await tx.lock(lockKeys.chain(orgId));
        const size = await tx.merkle.size(orgId, LEDGER_LOG);
        const rows = await tx.receipts.chunk(
          orgId,
          size - 1,
          size - 1 + BACKFILL_CHUNK,
          BACKFILL_CHUNK,
        );
        if (rows.length === 0) return 0;
        rows.forEach((row, i) => {
          if (row.org_seq !== size + i) {
            throw new Error(`receipts of ${orgId} skip org_seq ${size + i}: the tree cannot grow`);
          }
        });
        await appendLeaves(
          tx,
          orgId,
          LEDGER_LOG,
          rows.map((row) => receiptLeaf(row.receipt_sha256)),
        );
        return rows.length;
      });
      appended += added;
      if (added < BACKFILL_CHUNK) break;
    }
  }
  // Many nodes were just written, faster than PostgreSQL's autovacuum refreshes its statistics:
  // until it does, the planner would price the tree as small and could scan it on every mint.
  if (appended > 0) await storage.write((tx) => tx.merkle.refreshStatistics());
  return appended;
}
