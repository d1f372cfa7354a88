import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StatementNames } from './statement-names.js';

const options = { nameFromUse: 3, maxNamed: 2, maxKnown: 4 };

describe('StatementNames', () => {
  it('names a statement from its nth use on, keeps the name, and translates its text once', () => {
    let translated = 0;
    const names = new StatementNames((sql) => {
      translated += 1;
      return sql.replace('?', '$1');
    }, options);
    const uses = [1, 2, 3, 4].map(() => names.use('SELECT ?'));
    expect(uses.map((s) => s.name)).toEqual([undefined, undefined, 'rl0_0', 'rl0_0']);
    expect(uses.every((s) => s.text === 'SELECT $1')).toBe(true);
    expect(translated).toBe(1);
  });

  it('gives each statement its own name, never more than maxNamed, and counts at most maxKnown statements', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 10, maxLength: 60 }),
        (sequence) => {
          const names = new StatementNames((sql) => sql, options);
          const nameOf = new Map<string, string>();
          const counted = new Set<string>();
          for (const n of sequence) {
            const sql = `SELECT ${n}`;
            const { name } = names.use(sql);
            if (counted.size < options.maxKnown) counted.add(sql);
            if (name === undefined) {
              expect(nameOf.has(sql)).toBe(false);
              continue;
            }
            // Only a counted statement gets a name, and only from its third use.
            expect(counted.has(sql)).toBe(true);
            expect(sequence.filter((m) => m === n).length).toBeGreaterThanOrEqual(3);
            expect(nameOf.get(sql) ?? name).toBe(name);
            nameOf.set(sql, name);
          }
          const given = [...nameOf.values()];
          expect(new Set(given).size).toBe(given.length);
          expect(given.length).toBeLessThanOrEqual(options.maxNamed);
        },
      ),
    );
  });

  it('after forget, names nothing until the nth use again, then names no connection has seen', () => {
    const names = new StatementNames((sql) => sql, options);
    const before = [1, 2, 3].map(() => names.use('SELECT 1').name);
    names.forget();
    const after = [1, 2, 3].map(() => names.use('SELECT 1').name);
    expect(before).toEqual([undefined, undefined, 'rl0_0']);
    expect(after.slice(0, 2)).toEqual([undefined, undefined]);
    expect(after[2]).toBeDefined();
    expect(after[2]).not.toBe(before[2]);
  });
});
