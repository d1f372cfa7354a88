import { z } from 'zod';
import {
  ApprovalDecision,
  CheckCategory,
  CheckKind,
  CheckStatus,
  RuleSeverity,
  Severity,
  TierLevel,
  VerdictOutcome,
} from '../schemas/enums.js';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'lowercase hex SHA-256');
/** ISO 8601 UTC with exactly three fractional digits, as Date.prototype.toISOString writes it. */
const Timestamp = z.iso.datetime({ precision: 3 });
/** Integers only in a payload: RFC 8785 number formatting is then trivially portable. */
const Count = z.int().nonnegative();
const Id = z.string().min(1);

export const RunReceiptPayload = z.strictObject({
  v: z.literal(1),
  type: z.literal('run_receipt'),
  org_id: Id,
  org_seq: Count,
  parent_hash: Sha256,
  minted_at: Timestamp,
  run: z.strictObject({
    id: Id,
    title: z.string(),
    project_id: Id,
    created_by: Id,
    created_at: Timestamp,
  }),
  flight_sheet: z.strictObject({
    id: Id,
    slug: z.string().min(1),
    version: z.string().regex(/^\d+\.\d+\.\d+$/, 'must be MAJOR.MINOR.PATCH'),
    sha256: Sha256,
  }),
  submission_sha256: Sha256,
  evidence: z.array(
    z.strictObject({
      id: Id,
      kind: z.string().min(1),
      label: z.string(),
      sha256: Sha256,
      size: Count,
    }),
  ),
  checks: z.array(
    z.strictObject({
      key: z.string().min(1),
      category: CheckCategory,
      kind: CheckKind,
      severity: RuleSeverity,
      tier: TierLevel,
      // A receipted run was finalized, so no check is still open.
      status: CheckStatus.exclude(['open']),
      detail: z.string().nullable(),
    }),
  ),
  verdict: z.strictObject({
    outcome: VerdictOutcome,
    severity: Severity,
    score: z.int().min(0).max(100),
  }),
  approval: z.strictObject({
    decision: ApprovalDecision.extract(['approved']),
    note: z.string().nullable(),
    decided_by: Id,
    decided_at: Timestamp,
  }),
});
export type RunReceiptPayload = z.infer<typeof RunReceiptPayload>;
