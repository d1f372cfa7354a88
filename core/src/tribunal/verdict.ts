import type { CheckDraft } from '../schemas/check.js';
import type { FlightSheet } from '../schemas/flight-sheet.js';
import type { Verdict } from '../schemas/verdict.js';
import { computeVerdict } from '../verdict/compute.js';

/**
 * The tribunal's verdict: nobody grades checklist checks here, so they stay open. The arithmetic is
 * computeVerdict's over the checks that are not open; then, when any check is open, the counts say
 * so and a pass becomes risk (an unreviewed checklist can never pass). With no open check this is
 * exactly computeVerdict, the verdict of a run.
 */
export function tribunalVerdict(
  checks: readonly Pick<CheckDraft, 'status' | 'tier'>[],
  sheet: Pick<FlightSheet, 'pass_threshold' | 'fail_threshold'>,
): Verdict {
  const open = checks.filter((check) => check.status === 'open').length;
  const graded = computeVerdict(
    checks.filter((check) => check.status !== 'open'),
    sheet,
  );
  if (open === 0) return graded;
  return {
    ...graded,
    outcome: graded.outcome === 'pass' ? 'risk' : graded.outcome,
    counts: { ...graded.counts, open },
  };
}
