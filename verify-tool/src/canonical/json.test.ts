import { describe, expect, it } from 'vitest';
import { canonicalJson } from './json.js';
import { VerifyError } from '../errors.js';

/** `{a: 1, b: <itself>}`: keys in order, and a cycle. */
function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { a: 1 };
  value['b'] = value;
  return value;
}

describe('canonicalJson', () => {
  it('sorts keys by UTF-16 code units and writes numbers the ECMAScript way', () => {
    expect(canonicalJson({ b: 1, a: [1e21, -0, 'é'] })).toBe('{"a":[1e+21,0,"é"],"b":1}');
  });

  it('writes an array with its own toJSON by its items, as any other array', () => {
    const items = Object.assign([1, 2], { toJSON: () => 'replaced' });
    expect(() => canonicalJson(items)).not.toThrow();
    expect(canonicalJson(items)).toBe('[1,2]');
  });

  it.each([
    ['NaN', { a: Number.NaN }, 'non_finite_number'],
    ['Infinity', [Number.POSITIVE_INFINITY], 'non_finite_number'],
    ['a lone surrogate', '\uD800', 'lone_surrogate'],
    ['a lone surrogate in a key', { '\uDC00x': 1 }, 'lone_surrogate'],
    ['a Date', { at: new Date(0) }, 'unsupported_value'],
    ['undefined', { a: undefined }, 'unsupported_value'],
    ['a bigint', 1n, 'unsupported_value'],
    // The same faults inside objects whose keys are already in order.
    ['NaN after sorted keys', { a: 1, b: Number.NaN }, 'non_finite_number'],
    ['a lone surrogate after sorted keys', { a: 1, b: ['x', '\uDBFF'] }, 'lone_surrogate'],
    ['undefined in an array', { a: [1, undefined] }, 'unsupported_value'],
    ['a function after sorted keys', { a: 1, b: () => 1 }, 'unsupported_value'],
    ['a cycle through sorted keys', cyclic(), 'cyclic_value'],
  ])('rejects %s with a typed error', (_name, value, code) => {
    expect(() => canonicalJson(value)).toThrow(VerifyError);
    try {
      canonicalJson(value);
    } catch (error) {
      expect((error as VerifyError).code).toBe(code);
    }
  });
});
