import { conflict } from '../errors.js';
import type { Repositories, RunChanges, RunRecord } from '../ports/storage.js';

/** Applies changes to a run that must still be in the state it was read in. */
export async function updateRun(
  tx: Repositories,
  run: RunRecord,
  changes: RunChanges,
): Promise<void> {
  if (!(await tx.runs.update(run.org_id, run.id, run.state, changes))) {
    throw conflict('the run changed meanwhile; try again');
  }
}
