import { describe, expect, it } from 'vitest';
import { audit } from '../audit/audit.js';
import { BUILTIN_FLIGHT_SHEETS } from '../flight-sheets/builtin.js';
import type { CheckDraft } from '../schemas/check.js';
import { acceptRunnerChecks } from './checks.js';

const sheet = BUILTIN_FLIGHT_SHEETS.find((s) => s.slug === 'support-reply')!;
const drafts = audit(sheet, {}, []).checks;
// within_budget is its only optional rule; the others are auto and required.
const agentSheet = BUILTIN_FLIGHT_SHEETS.find((s) => s.slug === 'agent-task-report')!;
const agentDrafts = audit(agentSheet, {}, []).checks;

/** The drafts with the check of `key` given `status`. */
function withStatus(checks: CheckDraft[], key: string, status: CheckDraft['status']) {
  return checks.map((check) => (check.key === key ? { ...check, status } : check));
}

describe('acceptRunnerChecks', () => {
  it('accepts the audit’s own checks in any order and returns them in rule order', () => {
    expect(acceptRunnerChecks(sheet, [...drafts].reverse())).toEqual(drafts);
  });

  it('refuses a missing, duplicate or unknown key and a check that disagrees with its rule', () => {
    const [first, ...rest] = drafts;
    expect(() => acceptRunnerChecks(sheet, rest)).toThrow(/no check for rule/);
    expect(() => acceptRunnerChecks(sheet, [first!, ...drafts])).toThrow(/duplicate key/);
    expect(() => acceptRunnerChecks(sheet, [...drafts, { ...first!, key: 'made_up' }])).toThrow(
      /not a rule/,
    );
    expect(() => acceptRunnerChecks(sheet, [{ ...first!, severity: 'minor' }, ...rest])).toThrow(
      /severity/,
    );
    expect(() => acceptRunnerChecks(sheet, [{ ...first!, tier: 'low' }, ...rest])).toThrow(/tier/);
  });

  it('refuses a checklist check graded pass, flag or skip: checklist checks stay open', () => {
    const checklist = sheet.audit_checks.find((rule) => rule.kind === 'checklist')!.key;
    for (const status of ['pass', 'flag', 'skip'] as const) {
      expect(() => acceptRunnerChecks(sheet, withStatus(drafts, checklist, status))).toThrow(
        new RegExp(`"${checklist}" has status ${status}; checklist rules allow open`),
      );
    }
    expect(acceptRunnerChecks(sheet, withStatus(drafts, checklist, 'open'))).toEqual(drafts);
  });

  it('refuses an open auto check, and a skipped one unless its rule is optional', () => {
    const required = agentSheet.audit_checks.find((rule) => rule.optional !== true)!.key;
    expect(() => acceptRunnerChecks(agentSheet, withStatus(agentDrafts, required, 'open'))).toThrow(
      /has status open; auto rules allow pass, flag$/,
    );
    expect(() => acceptRunnerChecks(agentSheet, withStatus(agentDrafts, required, 'skip'))).toThrow(
      /has status skip/,
    );
    for (const status of ['pass', 'flag'] as const) {
      const sent = withStatus(agentDrafts, required, status);
      expect(acceptRunnerChecks(agentSheet, sent)).toEqual(sent);
    }
    const skipped = withStatus(agentDrafts, 'within_budget', 'skip');
    expect(acceptRunnerChecks(agentSheet, skipped)).toEqual(skipped);
    expect(() =>
      acceptRunnerChecks(agentSheet, withStatus(agentDrafts, 'within_budget', 'open')),
    ).toThrow(/optional auto rules allow pass, flag, skip/);
  });
});
