export { LEASE_FENCES, fenceFor, type JobEventType, type LeaseFence } from './fence.js';
export {
  TERMINAL_JOB_STATUSES,
  newJobLeaseState,
  leaseValidAt,
  transition,
  type JobLeaseState,
  type JobEvent,
  type JobTransition,
} from './machine.js';
