import { conflict } from '../errors.js';
import type { FlaggedKey } from '../ports/incident-storage.js';

/** SPEC.md: a recurring_flag needs the same rule key flagged in at least two earlier runs. */
export const RECURRING_MIN_RUNS = 2;

/**
 * The rule key a recurring_flag incident records: the given key when it was flagged in enough
 * earlier runs, or else (no key given) the key flagged in the most earlier runs, ties by key.
 * `flagged` is every key flagged in earlier runs of the project with its run count.
 */
export function recurringRuleKey(flagged: readonly FlaggedKey[], wanted?: string): string {
  if (wanted !== undefined) {
    const runs = flagged.find((f) => f.key === wanted)?.runs ?? 0;
    if (runs < RECURRING_MIN_RUNS) {
      throw conflict(
        `rule ${wanted} was flagged in ${runs} earlier run(s) of the project; ` +
          `recurring_flag needs at least ${RECURRING_MIN_RUNS}`,
      );
    }
    return wanted;
  }
  const best = [...flagged]
    .filter((f) => f.runs >= RECURRING_MIN_RUNS)
    .sort((a, b) => b.runs - a.runs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))[0];
  if (best === undefined) {
    throw conflict(
      `no rule key was flagged in ${RECURRING_MIN_RUNS} or more earlier runs of the project; ` +
        'file a policy_violation, rogue or dark incident instead',
    );
  }
  return best.key;
}
