import { conflict } from '../errors.js';
import type { FlaggedKey } from '../ports/incident-storage.js';

/** docs/design.md#incidents: a recurring_flag needs the same rule key flagged in at least two earlier runs. */
export const RECURRING_MIN_RUNS = 2;

/**
 * The rule key a recurring_flag incident records. "The same rule key" is read as a key flagged on
 * this run that was also flagged in at least two earlier runs of the project: a run that never
 * flagged the rule has nothing recurring to report. A given key must meet that; without one, the key
 * flagged here that recurs in the most earlier runs is taken, ties by key.
 * `earlier` is every key flagged in earlier runs of the project with its run count.
 */
export function recurringRuleKey(
  earlier: readonly FlaggedKey[],
  flaggedHere: ReadonlySet<string>,
  wanted?: string,
): string {
  if (wanted !== undefined) {
    if (!flaggedHere.has(wanted)) {
      throw conflict(
        `rule ${wanted} is not flagged on this run; recurring_flag needs it flagged here`,
      );
    }
    const runs = earlier.find((f) => f.key === wanted)?.runs ?? 0;
    if (runs < RECURRING_MIN_RUNS) {
      throw conflict(
        `rule ${wanted} was flagged in ${runs} earlier run(s) of the project; ` +
          `recurring_flag needs at least ${RECURRING_MIN_RUNS}`,
      );
    }
    return wanted;
  }
  const best = earlier
    .filter((f) => flaggedHere.has(f.key) && f.runs >= RECURRING_MIN_RUNS)
    .sort((a, b) => b.runs - a.runs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))[0];
  if (best === undefined) {
    throw conflict(
      `no rule key flagged on this run was flagged in ${RECURRING_MIN_RUNS} or more earlier runs ` +
        'of the project; file a policy_violation, rogue or dark incident instead',
    );
  }
  return best.key;
}
