import type { LeaseFence } from '../ports/router-storage.js';
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
