import { lockKeys } from '../ports/lock-keys.js';
import type { Storage } from '../ports/storage.js';
import type { AuditActor } from '../schemas/audit-receipt.js';
import { recordAudit } from './record.js';

const DEPLOYMENT: AuditActor = { kind: 'deployment', id: null };

/** A log the database holds shorter than, or different from, a checkpoint already signed for it. */
export interface RolledBackLog {
  org_id: string;
  log: string;
  signed: { tree_size: number; root_hash: string; time: string };
  /** The log's size in the database now. */
  tree_size: number;
}

/**
 * Writes one `history.rollback_accepted` receipt (actor `deployment`) per rolled-back log into its
 * organization's audit chain, organizations in id order (the order every instance takes chain
 * locks in), one transaction each under the deployment lock of this record. An organization the
 * database no longer holds at all has no chain to write into: it is skipped. Returns the receipts
 * written.
 */
export async function recordHistoryRollback(
  storage: Storage,
  logs: readonly RolledBackLog[],
  now: Date,
): Promise<number> {
  const sorted = [...logs].sort((a, b) =>
    a.org_id === b.org_id ? a.log.localeCompare(b.log) : a.org_id < b.org_id ? -1 : 1,
  );
  const present = new Set(await storage.read((tx) => tx.orgs.ids()));
  const held = sorted.filter((entry) => present.has(entry.org_id));
  for (const entry of held) {
    await storage.write(async (tx) => {
      await tx.lock(lockKeys.deployment('history_rollback'));
      await recordAudit(
        tx,
        entry.org_id,
        DEPLOYMENT,
        {
          type: 'history.rollback_accepted',
          log: entry.log,
          signed: entry.signed,
          tree_size: entry.tree_size,
        },
        now,
      );
    });
  }
  return held.length;
}
