import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inputProblem, MAX_JSON_DEPTH, textProblem } from './json-input.js';

const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const units = fc.string({
  unit: fc.oneof(anyUnit, fc.constantFrom('\u0000', '\ud800', '\udfff', '\ud83d\ude80')),
  maxLength: 12,
});

describe('the text rule', () => {
  it('accepts exactly the well-formed strings without NUL (cross-checked with isWellFormed)', () => {
    fc.assert(
      fc.property(units, (text) => {
        const wellFormed = (text as string & { isWellFormed(): boolean }).isWellFormed();
        expect(textProblem(text) === undefined).toBe(wellFormed && !text.includes('\u0000'));
      }),
      { numRuns: 2000 },
    );
  });

  it('names the field, a key by its parent, and refuses infinities and __proto__', () => {
    expect(inputProblem({ a: [1, 'x\ud800'] }, 'body')).toEqual({
      field: 'body.a.1',
      problem: 'must be well-formed Unicode (a lone surrogate was sent)',
    });
    expect(inputProblem({ a: { 'k\u0000': 1 } }, 'body')?.field).toBe('body.a');
    expect(inputProblem({ n: Infinity }, 'body')?.problem).toBe('number is out of range');
    expect(inputProblem(JSON.parse('{"__proto__":{}}'), 'body')?.problem).toBe(
      'a key must not be "__proto__"',
    );
    expect(inputProblem({ ok: ['\ud83d\ude80', 1.5, null, true] }, 'body')).toBeUndefined();
  });

  it(`allows ${MAX_JSON_DEPTH} levels of nesting and refuses one more, without recursion`, () => {
    const nest = (levels: number): unknown => {
      let value: unknown = 1;
      for (let i = 0; i < levels; i += 1) value = [value];
      return value;
    };
    expect(inputProblem(nest(MAX_JSON_DEPTH), 'body')).toBeUndefined();
    expect(inputProblem(nest(MAX_JSON_DEPTH + 1), 'body')?.problem).toBe(
      `nests deeper than ${MAX_JSON_DEPTH} levels`,
    );
    expect(inputProblem(nest(100_000), 'body')?.problem).toMatch(/nests deeper/);
  });
});
