import type { JobStatus } from '../schemas/enums.js';

export type JobEventType =
  | 'lease'
  | 'accept'
  | 'status'
  | 'log'
  | 'artifact'
  | 'complete'
  | 'fail'
  | 'heartbeat'
  | 'expire'
  | 'cancel'
  | 'start'
  | 'manual_complete';

/**
 * The guard of one event, shared by the pure machine and the storage layer's conditional UPDATE,
 * so both refuse exactly the same things:
 *
 *   UPDATE jobs SET … WHERE job_id = ? AND status IN (statuses)
 *     [token]     AND lease_token_hash = ? AND lease_epoch = ?
 *     [unexpired] AND lease_expires_at > now
 *     [expired]   AND lease_expires_at <= now
 *     [worker]    AND worker_id = ?
 *     [unleased]  AND lease_token_hash IS NULL
 */
export interface LeaseFence {
  statuses: readonly JobStatus[];
  /** The presented lease token's hash must equal the job's (and the epoch read with it). */
  token: boolean;
  unexpired: boolean;
  expired: boolean;
  worker: boolean;
  /** Only for jobs run without a worker (the manual path). */
  unleased: boolean;
}

const fence = (
  statuses: JobStatus[],
  flags: Partial<Omit<LeaseFence, 'statuses'>> = {},
): LeaseFence =>
  Object.freeze({
    statuses: Object.freeze(statuses),
    token: false,
    unexpired: false,
    expired: false,
    worker: false,
    unleased: false,
    ...flags,
  });

// A lease token is bound to its worker: another worker presenting it is refused like a stale token.
const heldLease = { token: true, unexpired: true, worker: true };

export const LEASE_FENCES: Readonly<Record<JobEventType, LeaseFence>> = Object.freeze({
  lease: fence(['queued']),
  accept: fence(['leased'], heldLease),
  status: fence(['running'], heldLease),
  log: fence(['running'], heldLease),
  artifact: fence(['running'], heldLease),
  complete: fence(['running'], heldLease),
  fail: fence(['leased', 'running'], heldLease),
  heartbeat: fence(['leased', 'running'], { worker: true, unexpired: true }),
  expire: fence(['leased', 'running'], { expired: true }),
  cancel: fence(['queued', 'leased', 'running']),
  start: fence(['queued']),
  manual_complete: fence(['running'], { unleased: true }),
});

export function fenceFor(event: JobEventType): LeaseFence {
  return LEASE_FENCES[event];
}
