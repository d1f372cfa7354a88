import { conflict } from '../errors.js';
import type { Repositories } from '../ports/storage.js';
import type { TribunalTaskGuard, TribunalTaskRecord } from '../ports/tribunal-storage.js';
import { CLAIM_FENCES, transitionTask, type TaskEvent } from './claims.js';
import { claimStateOf } from './views.js';

/**
 * Applies one claim-machine event to a stored task: the pure machine decides (throwing the 409 that
 * says why), then ONE conditional UPDATE built from the same fence changes the row only if it still
 * matches what was read: epoch, status, token hash, expiry.
 */
export async function applyTaskEvent(
  tx: Repositories,
  task: TribunalTaskRecord,
  event: TaskEvent,
  message: string | null = task.message,
): Promise<TribunalTaskRecord> {
  const next = transitionTask(claimStateOf(task), event);
  const fence = CLAIM_FENCES[event.type];
  const guard: TribunalTaskGuard = { claim_epoch: task.claim_epoch };
  if (fence.token && 'token_hash' in event) guard.token_hash = event.token_hash;
  if (fence.unexpired || fence.expired) guard.now = event.now.toISOString();
  const updated: TribunalTaskRecord = {
    ...task,
    status: next.status,
    attempt: next.attempt,
    claim_epoch: next.claim_epoch,
    claim_token_hash: next.claim_token_hash,
    claim_expires_at: next.claim_expires_at?.toISOString() ?? null,
    runner_id: next.runner_id,
    message,
    updated_at: event.now.toISOString(),
  };
  const { task_id: _id, verdict_id: _v, created_at: _c, ...change } = updated;
  if (!(await tx.tribunalTasks.applyFenced(task.task_id, fence, guard, change))) {
    throw conflict('stale claim: the task changed meanwhile');
  }
  return updated;
}
