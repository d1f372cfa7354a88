import { describe, expect, it } from 'vitest';
import { audit } from '../audit/audit.js';
import { BUILTIN_FLIGHT_SHEETS } from '../flight-sheets/builtin.js';
import { acceptRunnerChecks } from './checks.js';

const sheet = BUILTIN_FLIGHT_SHEETS.find((s) => s.slug === 'support-reply')!;
const drafts = audit(sheet, {}, []).checks;

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
});
