import { describe, expect, it } from 'vitest';
import { JSON_POINTER, appendToken, parsePointer, resolvePointer } from './json-pointer.js';

// The example document of RFC 6901 section 5.
const doc = {
  foo: ['bar', 'baz'],
  '': 0,
  'a/b': 1,
  'c%d': 2,
  'e^f': 3,
  'g|h': 4,
  'i\\j': 5,
  'k"l': 6,
  ' ': 7,
  'm~n': 8,
};

describe('resolvePointer', () => {
  it.each([
    ['', doc],
    ['/foo', ['bar', 'baz']],
    ['/foo/0', 'bar'],
    ['/', 0],
    ['/a~1b', 1],
    ['/c%d', 2],
    ['/e^f', 3],
    ['/g|h', 4],
    ['/i\\j', 5],
    ['/k"l', 6],
    ['/ ', 7],
    ['/m~0n', 8],
  ])('resolves the RFC 6901 example %j', (pointer, expected) => {
    expect(resolvePointer(doc, pointer)).toEqual({ found: true, value: expected });
  });

  it('unescapes ~01 to the key "~1", not to a slash', () => {
    expect(resolvePointer({ '~1': 'tilde-one', '/': 'slash' }, '/~01')).toEqual({
      found: true,
      value: 'tilde-one',
    });
  });

  it.each(['/missing', '/foo/2', '/foo/-', '/foo/01', '/foo/x', '/foo/0/length', '/constructor'])(
    'reports %j as absent',
    (pointer) => {
      expect(resolvePointer(doc, pointer)).toEqual({ found: false });
    },
  );

  it('finds null values as present', () => {
    expect(resolvePointer({ a: null }, '/a')).toEqual({ found: true, value: null });
  });
});

describe('parsePointer', () => {
  it('rejects pointers without a leading slash or with a bad escape', () => {
    expect(() => parsePointer('foo')).toThrow(/not a JSON pointer/);
    expect(() => parsePointer('/a~2')).toThrow(/not a JSON pointer/);
    expect(() => parsePointer('/a~')).toThrow(/not a JSON pointer/);
    expect(JSON_POINTER.test('/a/~0~1/b')).toBe(true);
  });
});

describe('appendToken', () => {
  it('escapes so that the result resolves back to the same key', () => {
    const key = 'a/~b';
    const pointer = appendToken('', key);
    expect(pointer).toBe('/a~1~0b');
    expect(resolvePointer({ [key]: 1 }, pointer)).toEqual({ found: true, value: 1 });
  });
});
