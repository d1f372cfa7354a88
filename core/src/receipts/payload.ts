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

/**
 * Fields in the order the canonical text writes them (sorted by key, at every level): what zod
 * returns then enumerates its keys in that order, and canonicalJson writes it without a copy.
 */
export const RunReceiptPayload = z.strictObject({
  approval: z.strictObject({
    decided_at: Timestamp,
    decided_by: Id,
    decision: ApprovalDecision.extract(['approved']),
    note: z.string().nullable(),
  }),
  checks: z.array(
    z.strictObject({
      category: CheckCategory,
      detail: z.string().nullable(),
      key: z.string().min(1),
      kind: CheckKind,
      severity: RuleSeverity,
      // A receipted run was finalized, so no check is still open.
      status: CheckStatus.exclude(['open']),
      tier: TierLevel,
    }),
  ),
  evidence: z.array(
    z.strictObject({
      id: Id,
      kind: z.string().min(1),
      label: z.string(),
      sha256: Sha256,
      size: Count,
    }),
  ),
  flight_sheet: z.strictObject({
    id: Id,
    sha256: Sha256,
    slug: z.string().min(1),
    version: z.string().regex(/^\d+\.\d+\.\d+$/, 'must be MAJOR.MINOR.PATCH'),
  }),
  minted_at: Timestamp,
  org_id: Id,
  org_seq: Count,
  parent_hash: Sha256,
  run: z.strictObject({
    created_at: Timestamp,
    created_by: Id,
    id: Id,
    project_id: Id,
    title: z.string(),
  }),
  submission_sha256: Sha256,
  type: z.literal('run_receipt'),
  v: z.literal(1),
  verdict: z.strictObject({
    outcome: VerdictOutcome,
    score: z.int().min(0).max(100),
    severity: Severity,
  }),
});
export type RunReceiptPayload = z.infer<typeof RunReceiptPayload>;
