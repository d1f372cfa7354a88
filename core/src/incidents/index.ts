export { incidentUseCases, toIncident } from './use-cases.js';
export { RECURRING_MIN_RUNS, recurringRuleKey } from './recurring.js';
