import * as core from '@runledger/core/schemas';
import type { z } from 'zod';

/** The tribunal's and the runner routes' wire schemas by component name (main API). */
export const TRIBUNAL_NAMED: Record<string, z.ZodType> = {
  TribunalGradeBody: core.TribunalGradeBody,
  TribunalQueued: core.TribunalQueued,
  TribunalSheetRef: core.TribunalSheetRef,
  TribunalHistoryEntry: core.TribunalHistoryEntry,
  TribunalVerdict: core.TribunalVerdict,
  TribunalRegradeBody: core.TribunalRegradeBody,
  CheckDraft: core.CheckDraft,
  RunnerSheet: core.RunnerSheet,
  RunnerClaimBody: core.RunnerClaimBody,
  RunnerTask: core.RunnerTask,
  RunnerTaskState: core.RunnerTaskState,
  RunnerStatusBody: core.RunnerStatusBody,
  RunnerCompleteBody: core.RunnerCompleteBody,
  RunnerFailBody: core.RunnerFailBody,
};
