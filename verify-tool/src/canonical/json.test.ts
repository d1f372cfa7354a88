import { describe, expect, it } from 'vitest';
import { canonicalJson } from './json.js';
import { VerifyError } from '../errors.js';

describe('canonicalJson', () => {
  it('sorts keys by UTF-16 code units and writes numbers the ECMAScript way', () => {
    expect(canonicalJson({ b: 1, a: [1e21, -0, 'é'] })).toBe('{"a":[1e+21,0,"é"],"b":1}');
  });

  it.each([
    ['NaN', { a: Number.NaN }, 'non_finite_number'],
    ['Infinity', [Number.POSITIVE_INFINITY], 'non_finite_number'],
    ['a lone surrogate', '\uD800', 'lone_surrogate'],
    ['a lone surrogate in a key', { '\uDC00x': 1 }, 'lone_surrogate'],
    ['a Date', { at: new Date(0) }, 'unsupported_value'],
    ['undefined', { a: undefined }, 'unsupported_value'],
    ['a bigint', 1n, 'unsupported_value'],
  ])('rejects %s with a typed error', (_name, value, code) => {
    expect(() => canonicalJson(value)).toThrow(VerifyError);
    try {
      canonicalJson(value);
    } catch (error) {
      expect((error as VerifyError).code).toBe(code);
    }
  });
});
