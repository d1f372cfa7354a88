import { z } from 'zod';
import { Timestamp } from './common.js';
import { ApprovalDecision } from './enums.js';

/** Body of `POST /runs/{run_id}/approve`. */
export const ApprovalIn = z.strictObject({
  decision: ApprovalDecision,
  note: z.string().max(4000).optional(),
});

export const Approval = z.object({
  decision: ApprovalDecision,
  note: z.string(),
  /** The user id of the person who decided (API keys cannot decide). */
  decided_by: z.string(),
  decided_at: Timestamp,
});

export type ApprovalIn = z.infer<typeof ApprovalIn>;
export type Approval = z.infer<typeof Approval>;
