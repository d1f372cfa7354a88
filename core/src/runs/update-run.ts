import { conflict } from '../errors.js';
import type { Repositories, RunChanges, RunRecord, WriteTransaction } from '../ports/storage.js';
import { emitRunChange } from '../webhooks/emit.js';

/** Applies changes to a run that must still be in the state it was read in. */
export async function updateRun(
  tx: Repositories,
  run: RunRecord,
  changes: RunChanges,
): Promise<void> {
  const [updated] = await Promise.all([
    tx.runs.update(run.org_id, run.id, run.state, changes),
    emitRunChange(tx, run, changes),
  ]);
  if (!updated) {
    throw conflict('the run changed meanwhile; try again');
  }
}

/**
 * Ends the transaction with the guarded update of a run read with `loadRunForUpdate` (`endWith`).
 * The row has been held since it was read, so the guard matches and there is no answer to wait
 * for; a statement that fails still refuses the transaction. `fn` may await other statements it
 * has already sent, but sends nothing after this.
 */
export function endWithRunUpdate(tx: WriteTransaction, run: RunRecord, changes: RunChanges): void {
  tx.endWith(
    emitRunChange(tx, run, changes),
    tx.runs.update(run.org_id, run.id, run.state, changes),
  );
}
