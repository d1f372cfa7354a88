import { describe, expect, it } from 'vitest';
import type { RunledgerError } from '../errors.js';
import { flightSheetSha256 } from './sha256.js';
import { validateFlightSheetInput } from './validate.js';

const valid = {
  slug: 'expense-report',
  name: 'Expense report',
  version: '1.0.0',
  lane: 'finance',
  summary: 'Expenses add up.',
  pass_threshold: 80,
  fail_threshold: 50,
  audit_checks: [
    {
      key: 'totals',
      label: 'Totals add up',
      category: 'math',
      kind: 'auto',
      severity: 'high',
      check: { op: 'sum', items: '/lines', field: 'amount', equals: '/total' },
    },
    {
      key: 'look',
      label: 'Looks right',
      category: 'policy',
      kind: 'checklist',
      severity: 'low',
      guidance: 'Look.',
    },
  ],
  required_output_schema: { type: 'object', required: ['lines', 'total'] },
};

/** Expects an invalid_input error whose message matches. */
function rejects(input: unknown, message: RegExp) {
  try {
    validateFlightSheetInput(input);
  } catch (error) {
    expect((error as RunledgerError).code).toBe('invalid_input');
    expect((error as Error).message).toMatch(message);
    return;
  }
  expect.fail('the sheet was accepted');
}

describe('validateFlightSheetInput', () => {
  it('accepts a well-formed sheet and returns it parsed', () => {
    expect(validateFlightSheetInput(valid)).toEqual(valid);
  });

  it('accepts equal thresholds and the extremes 0 and 100', () => {
    expect(() =>
      validateFlightSheetInput({ ...valid, pass_threshold: 70, fail_threshold: 70 }),
    ).not.toThrow();
    expect(() =>
      validateFlightSheetInput({ ...valid, pass_threshold: 100, fail_threshold: 0 }),
    ).not.toThrow();
  });

  it('rejects fail_threshold above pass_threshold', () => {
    rejects(
      { ...valid, pass_threshold: 60, fail_threshold: 61 },
      /fail_threshold \(61\) must not exceed/,
    );
  });

  it('rejects thresholds outside 0..100 or not integers', () => {
    rejects({ ...valid, pass_threshold: 101 }, /pass_threshold/);
    rejects({ ...valid, fail_threshold: -1 }, /fail_threshold/);
    rejects({ ...valid, pass_threshold: 80.5 }, /pass_threshold/);
  });

  it('rejects duplicate rule keys', () => {
    rejects(
      { ...valid, audit_checks: [valid.audit_checks[0], valid.audit_checks[0]] },
      /duplicate rule key "totals"/,
    );
  });

  it('rejects an auto rule whose category does not match its op', () => {
    const rule = { ...valid.audit_checks[0], category: 'policy' };
    rejects({ ...valid, audit_checks: [rule] }, /category policy but op sum belongs to math/);
  });

  it('rejects an auto rule without a check and a checklist rule without guidance', () => {
    const { check: _check, ...noCheck } = valid.audit_checks[0]!;
    rejects({ ...valid, audit_checks: [noCheck] }, /audit_checks\.0\.check/);
    const { guidance: _guidance, ...noGuidance } = valid.audit_checks[1]!;
    rejects({ ...valid, audit_checks: [noGuidance] }, /audit_checks\.0\.guidance/);
  });

  it('rejects an unknown op, a bad pointer and a user regex key', () => {
    const withCheck = (check: unknown) => ({
      ...valid,
      audit_checks: [{ ...valid.audit_checks[0], check }],
    });
    rejects(withCheck({ op: 'regex', pattern: '.*' }), /audit_checks\.0\.check\.op/);
    rejects(
      withCheck({ op: 'sum', items: 'lines', field: 'amount', equals: '/total' }),
      /JSON pointer/,
    );
    rejects(
      withCheck({ op: 'sum', items: '/lines', field: 'amount', equals: '/total', pattern: 'x' }),
      /audit_checks\.0\.check/,
    );
  });

  it('rejects unknown keys on the sheet (strict body)', () => {
    rejects({ ...valid, owner: 'me' }, /owner/);
  });

  it('rejects an output schema that does not compile', () => {
    rejects(
      { ...valid, required_output_schema: { type: 'strng' } },
      /required_output_schema does not compile/,
    );
    rejects(
      { ...valid, required_output_schema: { $ref: 'https://example.com/elsewhere.json' } },
      /does not compile/,
    );
  });
});

describe('flightSheetSha256', () => {
  it('ignores id, sha256, builtin and created_at, and key order', () => {
    const sheet = validateFlightSheetInput(valid);
    const reordered = Object.fromEntries(Object.entries(sheet).reverse()) as typeof sheet;
    const stored = {
      ...sheet,
      id: 'fs_x',
      sha256: 'f'.repeat(64),
      builtin: false,
      created_at: '2026-01-01T00:00:00.000Z',
    };
    expect(flightSheetSha256(reordered)).toBe(flightSheetSha256(sheet));
    expect(flightSheetSha256(stored)).toBe(flightSheetSha256(sheet));
    expect(flightSheetSha256(sheet)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with any content change', () => {
    const sheet = validateFlightSheetInput(valid);
    expect(flightSheetSha256({ ...sheet, summary: 'Expenses add up!' })).not.toBe(
      flightSheetSha256(sheet),
    );
    expect(flightSheetSha256({ ...sheet, pass_threshold: 81 })).not.toBe(flightSheetSha256(sheet));
  });
});
