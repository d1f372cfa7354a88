import { z } from 'zod';
import { Severity, VerdictOutcome } from './enums.js';

const Count = z.int().min(0);

export const VerdictCounts = z.object({ pass: Count, flag: Count, open: Count, skip: Count });

export const Verdict = z.object({
  severity: Severity,
  outcome: VerdictOutcome,
  score: z.int().min(0).max(100),
  pass_threshold: z.int().min(0).max(100),
  fail_threshold: z.int().min(0).max(100),
  counts: VerdictCounts,
});

export type VerdictCounts = z.infer<typeof VerdictCounts>;
export type Verdict = z.infer<typeof Verdict>;
