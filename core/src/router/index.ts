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
