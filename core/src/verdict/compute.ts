import { conflict } from '../errors.js';
import type { CheckDraft } from '../schemas/check.js';
import type { Severity, TierLevel } from '../schemas/enums.js';
import type { FlightSheet } from '../schemas/flight-sheet.js';
import type { Verdict } from '../schemas/verdict.js';
import { TIER_WEIGHT } from '../tiers/tier-of.js';

const SEVERITY_OF_WORST: Record<TierLevel | 'none', Severity> = {
  none: 'honey',
  low: 'honey',
  mid: 'jelly',
  high: 'propolis',
};
const RANK: Record<TierLevel, number> = { low: 1, mid: 2, high: 3 };

/**
 * The verdict of docs/design.md#run-lifecycle over fully graded checks. Weights high 5, mid 3, low 1 over
 * pass and flag checks; skip counts neither way. Throws conflict while any check is open.
 */
export function computeVerdict(
  checks: readonly Pick<CheckDraft, 'status' | 'tier'>[],
  sheet: Pick<FlightSheet, 'pass_threshold' | 'fail_threshold'>,
): Verdict {
  const counts = { pass: 0, flag: 0, open: 0, skip: 0 };
  let passed = 0;
  let graded = 0;
  let worst: TierLevel | 'none' = 'none';
  for (const check of checks) {
    counts[check.status] += 1;
    if (check.status !== 'pass' && check.status !== 'flag') continue;
    const weight = TIER_WEIGHT[check.tier];
    graded += weight;
    if (check.status === 'pass') passed += weight;
    else if (worst === 'none' || RANK[check.tier] > RANK[worst]) worst = check.tier;
  }
  if (counts.open > 0) {
    throw conflict(`${counts.open} check${counts.open === 1 ? ' is' : 's are'} still open`);
  }
  // Integer arithmetic: weights are small integers, so floor(100 * p / g) is exact.
  const score = graded === 0 ? 100 : Math.floor((100 * passed) / graded);
  const outcome =
    score >= sheet.pass_threshold && worst !== 'high'
      ? 'pass'
      : score < sheet.fail_threshold
        ? 'fail'
        : 'risk';
  return {
    severity: SEVERITY_OF_WORST[worst],
    outcome,
    score,
    pass_threshold: sheet.pass_threshold,
    fail_threshold: sheet.fail_threshold,
    counts,
  };
}
