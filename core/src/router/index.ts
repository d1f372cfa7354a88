export {
  NodeClass,
  HOURLY_RATES,
  CURRENCY,
  MAX_HOURS,
  parseNodeClass,
  hourlyRate,
  quote,
  actualCost,
  type Quote,
  type JobCost,
} from './pricing.js';
export {
  MEMBERSHIP_PRICE,
  MEMBERSHIP_TERM_YEARS,
  membershipExpiry,
  membershipActive,
} from './membership.js';
export { routerUseCases } from './use-cases.js';
export { routerId, WORKER_TOKEN_PREFIX, LEASE_TOKEN_PREFIX, type RouterIdPrefix } from './ids.js';
export { RECOVERY_WINDOW_LINES } from './outbox.js';
export { DATASET_TRANSITIONS, nextDatasetStatus, assertDatasetReady } from './staging.js';
export { MEMBERSHIP_PAID } from './payments.js';
