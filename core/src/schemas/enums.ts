import { z } from 'zod';

/** The wire enumerations (docs/design.md#enumerations), value for value. Responses are validated against these on the way out. */
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
export const IncidentKind = z.enum(['rogue', 'dark', 'policy_violation', 'recurring_flag'], {
  error: (issue) =>
    issue.input === 'single_flag'
      ? 'single_flag is not an incident kind: a single flag is a run-level finding (see the run flags); ' +
        'use rogue, dark, policy_violation or recurring_flag'
      : undefined,
});
export const Role = z.enum(['owner', 'member']);
/** How a shared receipt shows people (docs/share.md, "Names"): by e-mail while a member, or by id only. */
export const ShareIdentity = z.enum(['email', 'id']);
/** Kinds a client may post as JSON evidence (docs/design.md#enumerations: note, text, url and similar). */
export const EvidenceTextKind = z.enum(['note', 'text', 'url', 'log', 'json']);
/** Every stored evidence kind: the JSON kinds plus `file` for multipart uploads. */
export const EvidenceKind = z.enum([...EvidenceTextKind.options, 'file']);
/** Comparison operators of the `compare` rule. */
export const CompareOp = z.enum(['eq', 'ne', 'lt', 'lte', 'gt', 'gte']);
/** Codes of LedgerVerifyResult.errors (docs/design.md#receipts-and-the-chain, plus the verify package's finer findings). */
export const LedgerErrorCode = z.enum([
  'hash_mismatch',
  'parent_mismatch',
  'seq_gap',
  'seq_duplicate',
  'id_mismatch',
  'field_mismatch',
  'bad_genesis',
  'seq_order',
  'bad_payload',
  'not_canonical',
  'bad_entry',
]);

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
export type ShareIdentity = z.infer<typeof ShareIdentity>;
export type EvidenceTextKind = z.infer<typeof EvidenceTextKind>;
export type EvidenceKind = z.infer<typeof EvidenceKind>;
export type CompareOp = z.infer<typeof CompareOp>;
export type LedgerErrorCode = z.infer<typeof LedgerErrorCode>;
export type JobType = z.infer<typeof JobType>;
export type JobStatus = z.infer<typeof JobStatus>;
export type RouterReceiptType = z.infer<typeof RouterReceiptType>;

/** Where a run is between creation and its receipt. */
export const RunState = z.enum([
  'draft',
  'audited',
  'finalized',
  'approved',
  'rejected',
  'escalated',
  'receipted',
]);
export type RunState = z.infer<typeof RunState>;

/** The router's compute node classes (docs/design.md#router). */
export const NodeClass = z.enum(['gpu_a_96gb', 'gpu_b_32gb']);
export type NodeClass = z.infer<typeof NodeClass>;

/**
 * What can happen to a run. `audit_open` is an audit that leaves checks to grade,
 * `audit_complete` one where every check is automatic (it finalizes at once).
 */
export const RunEvent = z.enum([
  'change_inputs',
  'audit_open',
  'audit_complete',
  'grade',
  'finalize',
  'approve',
  'reject',
  'escalate',
  'mint',
]);
export type RunEvent = z.infer<typeof RunEvent>;
