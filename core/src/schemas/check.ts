import { z } from 'zod';
import { CheckCategory, CheckKind, CheckStatus, RuleSeverity, TierLevel } from './enums.js';

/** A check as the audit produces it, before storage gives it an id. */
export const CheckDraft = z.object({
  key: z.string(),
  label: z.string(),
  category: CheckCategory,
  kind: CheckKind,
  severity: RuleSeverity,
  tier: TierLevel,
  status: CheckStatus,
  /** A short human sentence: why it passed, flagged or was skipped, or the grader's guidance while open. */
  detail: z.string(),
});

export const Check = CheckDraft.extend({ id: z.string() });

export const ChecksList = z.object({ checks: z.array(Check) });

/** Only the flagged checks of a run. */
export const FlagsList = z.object({
  flags: z.array(z.object({ key: z.string(), severity: RuleSeverity, detail: z.string() })),
});

/** Body of `PATCH /runs/{run_id}/checks/{check_id}`: a grader resolves an open check. */
export const CheckGradeIn = z.strictObject({ status: z.enum(['pass', 'flag']) });

export type CheckDraft = z.infer<typeof CheckDraft>;
export type Check = z.infer<typeof Check>;
export type ChecksList = z.infer<typeof ChecksList>;
export type FlagsList = z.infer<typeof FlagsList>;
export type CheckGradeIn = z.infer<typeof CheckGradeIn>;
