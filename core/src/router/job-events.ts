import { conflict } from '../errors.js';
import { fenceFor } from '../leases/fence.js';
import { transition, type JobEvent, type JobLeaseState } from '../leases/machine.js';
import type { JobChange, JobGuard, JobRecord } from '../ports/router-storage.js';
import type { Repositories, WriteTransaction } from '../ports/storage.js';
import type { RouterReceiptType } from '../schemas/enums.js';

export type JobExtras = Omit<JobChange, keyof JobLeaseState | 'updated_at'>;

function leaseState(j: JobRecord): JobLeaseState {
  return {
    status: j.status,
    attempt: j.attempt,
    lease_epoch: j.lease_epoch,
    lease_token_hash: j.lease_token_hash,
    lease_expires_at: j.lease_expires_at === null ? null : new Date(j.lease_expires_at),
    worker_id: j.worker_id,
  };
}

/** What a lease-machine event changes in a stored job, and the fenced UPDATE's guard and change. */
function fencedChange(job: JobRecord, event: JobEvent, now: string, extras: JobExtras) {
  const { job: next, receipt } = transition(leaseState(job), event);
  const fence = fenceFor(event.type);
  const guard: JobGuard = { lease_epoch: job.lease_epoch };
  if (fence.token && 'token_hash' in event) guard.token_hash = event.token_hash;
  if (fence.worker && 'worker_id' in event) guard.worker_id = event.worker_id;
  if ((fence.unexpired || fence.expired) && 'now' in event) guard.now = event.now.toISOString();
  const change: JobChange = {
    ...extras,
    status: next.status,
    attempt: next.attempt,
    lease_epoch: next.lease_epoch,
    lease_token_hash: next.lease_token_hash,
    lease_expires_at: next.lease_expires_at?.toISOString() ?? null,
    worker_id: next.worker_id,
    updated_at: now,
  };
  const { add_log_lines: added = 0, ...columns } = change;
  const changed: JobRecord = { ...job, ...columns, log_lines: job.log_lines + added };
  return { fence, guard, change, changed, receipt };
}

const stale = () => conflict('stale lease: the job changed meanwhile');

/**
 * Applies one lease-machine event to a stored job: the pure machine decides (throwing the 409 that
 * explains why), then ONE conditional UPDATE built from the same fence (core/src/leases) makes the
 * change only if the row still matches what was read: epoch, statuses, token, expiry, worker.
 */
export async function applyJobEvent(
  tx: Repositories,
  job: JobRecord,
  event: JobEvent,
  now: string,
  extras: JobExtras = {},
): Promise<{ job: JobRecord; receipt: RouterReceiptType | null }> {
  const { fence, guard, change, changed, receipt } = fencedChange(job, event, now, extras);
  if (!(await tx.jobs.applyFenced(job.job_id, fence, guard, change))) throw stale();
  return { job: changed, receipt };
}

/**
 * `applyJobEvent` as the write that ends the transaction (`endWith`): where the row no longer
 * matches what was read, the whole transaction is refused with the same 409. What it returns is
 * the job as the change leaves it; the caller sends nothing after this but other ending writes.
 */
export function endWithJobEvent(
  tx: WriteTransaction,
  job: JobRecord,
  event: JobEvent,
  now: string,
  extras: JobExtras = {},
): { job: JobRecord; receipt: RouterReceiptType | null } {
  const { fence, guard, change, changed, receipt } = fencedChange(job, event, now, extras);
  tx.endWith(tx.jobs.applyFencedEnding(job.job_id, fence, guard, change, stale));
  return { job: changed, receipt };
}
