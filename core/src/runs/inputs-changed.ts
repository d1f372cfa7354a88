import type { RunRecord, WriteTransaction } from '../ports/storage.js';
import { afterInputChange } from './lifecycle.js';
import { endWithRunUpdate } from './update-run.js';

/**
 * Ends a transaction that changed a run's inputs (evidence or the submission, `sent` and not
 * awaited): the run, read with `loadRunForUpdate`, goes back to draft, its verdict and (past a
 * draft) its checks cleared (docs/design.md#run-lifecycle). The run's update ends the transaction.
 */
export async function inputsChanged(
  tx: WriteTransaction,
  run: RunRecord,
  now: string,
  sent: Promise<unknown>,
): Promise<void> {
  const state = afterInputChange(run.state);
  const cleared = run.state !== 'draft' ? tx.checks.replace(run.org_id, run.id, []) : undefined;
  endWithRunUpdate(tx, run, { state, verdict: null, updated_at: now });
  await Promise.all([sent, cleared]);
}
