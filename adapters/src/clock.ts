import type { Clock } from '@runledger/core/ports';

/** The machine's wall clock. */
export function systemClock(): Clock {
  return { now: () => new Date() };
}
