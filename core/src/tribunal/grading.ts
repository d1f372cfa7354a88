import { audit, type AuditableSheet } from '../audit/audit.js';
import type { EvidenceSummary } from '../audit/finding.js';
import type { CheckDraft } from '../schemas/check.js';
import type { FlightSheet } from '../schemas/flight-sheet.js';
import type { RunnerTask } from '../schemas/tribunal.js';
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

/** The longest error a runner may send to fail a task (RunnerFailBody). */
const MAX_ERROR_LENGTH = 2000;

/** What a runner sends back for a claimed task: its checks to complete it, or why it failed. */
export type TaskGradeResult =
  { kind: 'complete'; checks: CheckDraft[] } | { kind: 'fail'; error: string };

/**
 * The grading step both runners share (in-process and external): grade the claimed task with
 * core; a grading that throws becomes a fail whose error fits RunnerFailBody.
 */
export function gradeTaskResult(
  task: Pick<RunnerTask, 'flight_sheet' | 'submission' | 'evidence'>,
): TaskGradeResult {
  try {
    const { checks } = gradeSubmission(task.flight_sheet, task.submission, task.evidence);
    return { kind: 'complete', checks };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: 'fail', error: `grading failed: ${reason}`.slice(0, MAX_ERROR_LENGTH) };
  }
}
