import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkJsonBody, checkJsonBytes } from './json-bytes.js';

/** Arrays and objects nested in a value, counted the way the byte scan counts them. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Object.values(value as Record<string, unknown>).map(depthOf);
  return 1 + Math.max(0, ...children);
}

const bytes = (text: string) => Buffer.from(text, 'utf8');
const refused = (text: string) => {
  try {
    checkJsonBytes(bytes(text));
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('the JSON byte scan', () => {
  it('agrees with a recursive count of the depth, whatever the strings hold', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.nat({ max: 70 }), (value, wrap) => {
        const text = `${'['.repeat(wrap)}${JSON.stringify(value)}${']'.repeat(wrap)}`;
        const depth = depthOf(value) + wrap;
        expect(refused(text)).toBe(depth > 64 ? 'request body nests deeper than 64 levels' : null);
      }),
      { numRuns: 300 },
    );
  });

  it('finds a member name given twice, however it is escaped, and only within one object', () => {
    expect(refused('{"a":1,"\\u0061":2}')).toBe(
      'request body repeats a member name in one object: "a"',
    );
    expect(refused('{"a\\"b":{"a\\"b":1},"x":"\\"a\\"b\\"","a\\"b":2}')).toBe(
      'request body repeats a member name in one object: "a\\"b"',
    );
    expect(refused('[{"a":1},{"a":2}]')).toBeNull();
    expect(refused('{"a":{"b":1},"b":{"a":2}}')).toBeNull();
    expect(refused('{"a":"a","b":"a"}')).toBeNull();
  });

  it('refuses bytes that are not UTF-8 and charsets other than UTF-8', () => {
    expect(() => checkJsonBytes(Buffer.from([0x22, 0xc0, 0x80, 0x22]))).toThrow(/not valid UTF-8/);
    expect(() => checkJsonBody(bytes('{}'), 'utf-16')).toThrow(/charset/);
    expect(() => checkJsonBody(bytes('{}'), 'utf-8')).not.toThrow();
    expect(() => checkJsonBody(bytes('{}'), null)).not.toThrow();
  });

  it('leaves text that is not JSON to the parser', () => {
    for (const text of ['{"a', '{"a":"\\', '}}}]]]', '{"\\x":1,"\\x":2}', '']) {
      expect(refused(text)).toBeNull();
    }
  });
});
