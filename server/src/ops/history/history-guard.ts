import {
  recordHistoryRollback,
  treeRootAt,
  treeSize,
  type RolledBackLog,
} from '@runledger/core/adapter';
import type { Storage } from '@runledger/core/ports';
import { toHex } from '@runledger/verify/hash';
import type { SignedHead, SignedHistory } from './signed-history.js';

/** The start refused: the database holds a shorter or another history than the one already signed. */
export class HistoryRollbackError extends Error {
  constructor(readonly logs: readonly RolledBackLog[]) {
    super(refusal(logs));
    this.name = 'HistoryRollbackError';
  }
}

function describe(entry: RolledBackLog): string {
  const where = `organization ${entry.org_id}, log ${entry.log}`;
  return entry.tree_size < entry.signed.tree_size
    ? `${where}: ${entry.tree_size} entries in the database, but a checkpoint of ${entry.signed.tree_size} was signed at ${entry.signed.time}`
    : `${where}: its first ${entry.signed.tree_size} entries differ from the checkpoint signed at ${entry.signed.time}`;
}

function refusal(logs: readonly RolledBackLog[]): string {
  return [
    'refusing to start: the database is behind what this deployment has already signed, ' +
      'as after a restore from an older backup. Minting now would publish a second history.',
    ...logs.slice(0, 20).map((entry) => `  ${describe(entry)}`),
    ...(logs.length > 20 ? [`  … and ${logs.length - 20} more logs`] : []),
    'Restore a backup taken after those checkpoints (runledger-server restore), or, to go on from ' +
      'this database knowingly, start once with ACCEPT_HISTORY_ROLLBACK=1: an audit receipt in ' +
      'each affected organization records it (docs/operations.md, "History protection").',
  ].join('\n');
}

/** Whether the database's log still holds the signed checkpoint: at least as long, same root there. */
async function rolledBack(storage: Storage, head: SignedHead): Promise<RolledBackLog | null> {
  return storage.read(async (tx) => {
    const size = await treeSize(tx, head.org_id, head.log);
    const same =
      size >= head.tree_size &&
      toHex(await treeRootAt(tx, head.org_id, head.log, head.tree_size)) === head.root_hash;
    if (same) return null;
    return {
      org_id: head.org_id,
      log: head.log,
      signed: { tree_size: head.tree_size, root_hash: head.root_hash, time: head.time },
      tree_size: size,
    };
  });
}

/** Every recorded log the database no longer extends. */
export async function rolledBackLogs(
  storage: Storage,
  history: SignedHistory,
): Promise<RolledBackLog[]> {
  const found: RolledBackLog[] = [];
  for (const head of history.heads()) {
    const entry = await rolledBack(storage, head);
    if (entry !== null) found.push(entry);
  }
  return found;
}

/**
 * Run at start, before anything is written: refuses (HistoryRollbackError) when a log is behind a
 * checkpoint already signed, unless `accept` (ACCEPT_HISTORY_ROLLBACK=1): then each such log gets
 * a `history.rollback_accepted` audit receipt, and its record is dropped so the history goes on
 * from the database. Returns the logs accepted.
 */
export async function guardSignedHistory(
  storage: Storage,
  history: SignedHistory,
  options: { accept: boolean; now: Date },
): Promise<RolledBackLog[]> {
  const logs = await rolledBackLogs(storage, history);
  if (logs.length === 0) return logs;
  if (!options.accept) throw new HistoryRollbackError(logs);
  await recordHistoryRollback(storage, logs, options.now);
  history.forget(logs);
  return logs;
}
