import type { CheckDraft } from '../schemas/check.js';
import type { FlightSheet, RuleCheck } from '../schemas/flight-sheet.js';
import { tierOf } from '../tiers/tier-of.js';
import type { EvidenceSummary, Finding } from './finding.js';
import { checkEvidence } from './ops/evidence.js';
import { checkCompare, checkSum } from './ops/math.js';
import { checkAllowValues, checkDenyTerms } from './ops/policy.js';
import { checkSchema } from './ops/schema.js';
import { checkRequired } from './ops/structure.js';

/** What the audit needs of a flight sheet (a stored FlightSheet or an inline one). */
export type AuditableSheet = Pick<FlightSheet, 'audit_checks' | 'required_output_schema'>;

export interface AuditResult {
  /** One check per rule, in the sheet's rule order. */
  checks: CheckDraft[];
  /** True when the sheet has no checklist rules, so the verdict can be computed at once. */
  deterministic: boolean;
  /** True when some check is open and a grader must resolve it. */
  needs_grading: boolean;
}

function evaluate(
  check: RuleCheck,
  sheet: AuditableSheet,
  submission: unknown,
  evidence: readonly EvidenceSummary[],
  optional: boolean,
): Finding {
  switch (check.op) {
    case 'required':
      return checkRequired(check, submission, optional);
    case 'schema':
      return checkSchema(sheet, submission, optional);
    case 'sum':
      return checkSum(check, submission, optional);
    case 'compare':
      return checkCompare(check, submission, optional);
    case 'evidence':
      return checkEvidence(check, evidence, optional);
    case 'deny_terms':
      return checkDenyTerms(check, submission, optional);
    case 'allow_values':
      return checkAllowValues(check, submission, optional);
  }
}

/**
 * Runs every rule of a flight sheet against a submission and its evidence (docs/design.md#flight-sheets).
 * Pure and total: bad input becomes a flag with a sentence, never an exception.
 */
export function audit(
  sheet: AuditableSheet,
  submission: unknown,
  evidence: readonly EvidenceSummary[],
): AuditResult {
  const checks = sheet.audit_checks.map((rule): CheckDraft => {
    const base = {
      key: rule.key,
      label: rule.label,
      category: rule.category,
      kind: rule.kind,
      severity: rule.severity,
      tier: tierOf(rule.severity),
    };
    if (rule.kind === 'checklist') return { ...base, status: 'open', detail: rule.guidance };
    return {
      ...base,
      ...evaluate(rule.check, sheet, submission, evidence, rule.optional === true),
    };
  });
  return {
    checks,
    deterministic: sheet.audit_checks.every((rule) => rule.kind === 'auto'),
    needs_grading: checks.some((check) => check.status === 'open'),
  };
}
