import type { RuleSeverity, TierLevel } from '../schemas/enums.js';

/** DESIGN.md section 5: both severity vocabularies (and the bee-product names) fold into three tiers. */
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

/** SPEC.md's tier_of. */
export function tierOf(severity: RuleSeverity): TierLevel {
  return TIER_OF[severity];
}

/** Verdict weight of a graded check in each tier (DESIGN.md section 6). */
export const TIER_WEIGHT = { high: 5, mid: 3, low: 1 } as const satisfies Record<TierLevel, number>;
