import { z } from 'zod';

/** The enumerations of SPEC.md, value for value. Responses are validated against these on the way out. */
export const Severity = z.enum(['honey', 'jelly', 'propolis']);
export const VerdictOutcome = z.enum(['pass', 'risk', 'fail']);
export const TierLevel = z.enum(['low', 'mid', 'high']);
export const CheckStatus = z.enum(['pass', 'flag', 'open', 'skip']);
export const CheckCategory = z.enum(['structure', 'schema', 'math', 'evidence', 'policy']);
export const CheckKind = z.enum(['auto', 'checklist']);
/** Older (critical, noncritical) and newer (high, mid, low) vocabularies both stay valid. */
export const RuleSeverity = z.enum([
  'high',
  'mid',
  'medium',
  'low',
  'critical',
  'noncritical',
  'honey',
  'jelly',
  'propolis',
  'minor',
]);
export const ApprovalDecision = z.enum(['approved', 'rejected', 'escalated']);
/** single_flag is deliberately absent: a single flag is a run-level finding, not an incident. */
export const IncidentKind = z.enum(['rogue', 'dark', 'policy_violation', 'recurring_flag']);
export const Role = z.enum(['owner', 'member']);

export const JobType = z.enum([
  'inference',
  'fine_tune',
  'eval',
  'dataset_build',
  'embedding',
  'batch',
]);
export const JobStatus = z.enum(['queued', 'leased', 'running', 'completed', 'failed', 'canceled']);
export const RouterReceiptType = z.enum([
  'membership',
  'dataset_access',
  'compute_quote',
  'compute_job',
  'fine_tune_job',
  'worker_registered',
  'job_leased',
  'worker_job_accepted',
  'artifact_reported',
  'worker_job_completed',
  'worker_job_failed',
  'lease_expired',
]);

export type Severity = z.infer<typeof Severity>;
export type VerdictOutcome = z.infer<typeof VerdictOutcome>;
export type TierLevel = z.infer<typeof TierLevel>;
export type CheckStatus = z.infer<typeof CheckStatus>;
export type CheckCategory = z.infer<typeof CheckCategory>;
export type CheckKind = z.infer<typeof CheckKind>;
export type RuleSeverity = z.infer<typeof RuleSeverity>;
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;
export type IncidentKind = z.infer<typeof IncidentKind>;
export type Role = z.infer<typeof Role>;
export type JobType = z.infer<typeof JobType>;
export type JobStatus = z.infer<typeof JobStatus>;
export type RouterReceiptType = z.infer<typeof RouterReceiptType>;
