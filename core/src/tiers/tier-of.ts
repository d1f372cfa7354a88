import type { RuleSeverity, TierLevel } from '../schemas/enums.js';

/** docs/design.md#flight-sheets: both severity vocabularies (and the bee-product names) fold into three tiers. */
const TIER_OF = {
  critical: 'high',
  high: 'high',
  propolis: 'high',
  mid: 'mid',
  medium: 'mid',
  jelly: 'mid',
  low: 'low',
  noncritical: 'low',
  minor: 'low',
  honey: 'low',
} as const satisfies Record<RuleSeverity, TierLevel>;

/** tier_of (docs/design.md#enumerations). */
export function tierOf(severity: RuleSeverity): TierLevel {
  return TIER_OF[severity];
}

/** Verdict weight of a graded check in each tier (docs/design.md#run-lifecycle). */
export const TIER_WEIGHT = { high: 5, mid: 3, low: 1 } as const satisfies Record<TierLevel, number>;
