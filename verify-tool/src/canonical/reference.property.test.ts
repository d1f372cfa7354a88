import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './json.js';

describe('canonicalJson against the reference implementation', () => {
  it('writes every JSON value exactly as the RFC 8785 authors’ canonicalize does', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes values already in canonical key order (parsed from canonical text) unchanged', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const text = canonicalize(value) ?? 'null';
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees on strings with any well-formed UTF-16, including astral characters and escapes', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' })),
        (value) => {
          expect(canonicalJson(value)).toBe(canonicalize(value));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('agrees on keys JavaScript orders by itself: integer-like keys and __proto__', () => {
    const key = fc.oneof(
      fc.constantFrom('0', '1', '10', '2', '01', '-1', '1.5', '__proto__', 'a', 'B', ''),
      fc.nat().map(String),
    );
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue({ maxDepth: 2 })), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 1000 },
    );
  });
});
