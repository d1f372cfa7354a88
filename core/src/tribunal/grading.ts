import { audit, type AuditableSheet } from '../audit/audit.js';
import type { EvidenceSummary } from '../audit/finding.js';
import type { CheckDraft } from '../schemas/check.js';
import type { FlightSheet } from '../schemas/flight-sheet.js';
import type { Verdict } from '../schemas/verdict.js';
import { tribunalVerdict } from './verdict.js';

export type GradableSheet = AuditableSheet & Pick<FlightSheet, 'pass_threshold' | 'fail_threshold'>;

/** What a runner does with a task: the synchronous audit of a run, then the tribunal verdict. */
export function gradeSubmission(
  sheet: GradableSheet,
  submission: unknown,
  evidence: readonly EvidenceSummary[],
): { checks: CheckDraft[]; verdict: Verdict } {
  const { checks } = audit(sheet, submission, evidence);
  return { checks, verdict: tribunalVerdict(checks, sheet) };
}
