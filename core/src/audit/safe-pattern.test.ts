import { describe, expect, it } from 'vitest';
import { BUILTIN_FLIGHT_SHEETS } from '../flight-sheets/builtin.js';
import { validateFlightSheetInput } from '../flight-sheets/validate.js';
import { RunledgerError } from '../errors.js';
import {
  MAX_PATTERN_SUBJECT,
  assertSafePatterns,
  boundedRegExp,
  unsafePatternReason,
} from './safe-pattern.js';
import { validatorFor } from './schema-validator.js';

describe('unsafePatternReason', () => {
  it.each([
    '^[a-z]{2}$',
    '^https?://',
    '^[0-9a-f]{64}$',
    '^(0|[1-9][0-9]*)(\\.[0-9]{1,6})?$',
    '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$',
    '^(?:ab|cd){1,3}$',
    '^(?<year>[0-9]{4})-[0-9]{2}$',
    '[(*+]+',
  ])('accepts %s', (pattern) => {
    expect(unsafePatternReason(pattern)).toBeNull();
  });

  it.each([
    ['^(a+)+$', 'repeated group'],
    ['^(a|aa)*$', 'repeated group'],
    ['^(?:\\d*)*$', 'repeated group'],
    ['^([a-z]{1,1000})+$', 'repeated group'],
    ['^(a)\\1$', 'backreferences'],
    ['^(?=a)a$', 'lookaround'],
    ['^(?<!a)b$', 'lookaround'],
    ['^a*b*c*$', 'unbounded repetitions'],
    ['^(a', 'unbalanced'],
    ['a)', 'unbalanced'],
    ['a'.repeat(300), 'longer than'],
  ])('refuses %s', (pattern, why) => {
    expect(unsafePatternReason(pattern)).toContain(why);
  });
});

describe('patterns in flight sheets', () => {
  it('lets every built-in schema through', () => {
    for (const sheet of BUILTIN_FLIGHT_SHEETS) {
      expect(() => assertSafePatterns(sheet.required_output_schema)).not.toThrow();
    }
  });

  it('refuses a sheet whose schema nests an unsafe pattern, naming where', () => {
    const {
      id: _id,
      sha256: _sha,
      builtin: _b,
      created_at: _c,
      ...base
    } = BUILTIN_FLIGHT_SHEETS[0]!;
    const evil = {
      ...base,
      slug: 'evil',
      required_output_schema: {
        type: 'object',
        properties: { name: { type: 'string', pattern: '^(a+)+$' } },
      },
    };
    expect(() => validateFlightSheetInput(evil)).toThrow(RunledgerError);
    expect(() => validateFlightSheetInput(evil)).toThrow(/properties\/name\/pattern/);
    const keyed = {
      ...base,
      slug: 'evil-keys',
      required_output_schema: { type: 'object', patternProperties: { '^(x|xx)+$': {} } },
    };
    expect(() => validateFlightSheetInput(keyed)).toThrow(/patternProperties/);
  });

  it('never runs a pattern on a string longer than the subject limit', () => {
    const regExp = boundedRegExp('^a*$', 'u');
    expect(regExp.test('a'.repeat(MAX_PATTERN_SUBJECT))).toBe(true);
    expect(regExp.test('a'.repeat(MAX_PATTERN_SUBJECT + 1))).toBe(false);
    const validate = validatorFor({ type: 'string', pattern: '^a*$' });
    expect(validate('a'.repeat(MAX_PATTERN_SUBJECT + 1))).toBe(false);
    expect(validate('aaa')).toBe(true);
  });
});
