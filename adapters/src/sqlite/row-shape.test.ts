import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { rowShape } from './row-shape.js';

const db = new Database(':memory:');
afterAll(() => db.close());

/** A statement that selects `values` under the column names `names` (quoted as SQL identifiers). */
const selectAs = (names: readonly string[]) =>
  db.prepare(`SELECT ${names.map((n) => `? AS "${n.replaceAll('"', '""')}"`).join(', ')}`);

describe('rowShape', () => {
  it('builds the object better-sqlite3 builds, for any column names (repeated ones too) and values', () => {
    const name = fc.oneof(
      fc.string({ maxLength: 10 }).filter((s) => !s.includes('\0') && s !== '__proto__'),
      fc.constantFrom('constructor', 'a', '"}; throw 1; ({', '0', '1e3', 'toString', ''),
    );
    const value = fc.oneof(
      fc.string().filter((s) => !s.includes('\0')),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constant(null),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { minLength: 1, maxLength: 8 }), (columns) => {
        const names = columns.map(([n]) => n);
        const values = columns.map(([, v]) => v);
        const asObject = selectAs(names).get(...values) as Record<string, unknown>;
        const raw = selectAs(names)
          .raw(true)
          .get(...values) as unknown[];
        const shaped = rowShape(names)(raw);
        expect(Object.getPrototypeOf(shaped)).toBe(Object.prototype);
        expect(Object.keys(shaped)).toEqual(Object.keys(asObject));
        expect(shaped).toEqual(asObject);
      }),
    );
  });

  it('keeps a column named __proto__ as an own key and never takes it for the prototype', () => {
    const shaped = rowShape(['__proto__', 'a'])([{ polluted: true }, 1]);
    expect(Object.getPrototypeOf(shaped)).toBe(Object.prototype);
    expect(Object.keys(shaped)).toEqual(['__proto__', 'a']);
    expect((shaped as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
