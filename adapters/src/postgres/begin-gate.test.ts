import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { beginGate } from './begin-gate.js';

// A pure unit: BEGIN is a promise the test settles, and "sending" records the statement's text.

const statement = fc.constantFrom(
  'SELECT * FROM runs WHERE id = $1',
  '  select pg_advisory_xact_lock(hashtextextended($1, 0))',
  'INSERT INTO runs (id) VALUES ($1)',
  'UPDATE runs SET state = $1',
  'DELETE FROM checks WHERE run_id = $1',
  'WITH x AS (DELETE FROM jobs RETURNING *) SELECT * FROM x',
  'CREATE TABLE t (id TEXT)',
);
const isSelect = (text: string) => /^\s*select\b/i.test(text);
/** Statements issued while BEGIN is pending, and after it has answered. */
const batches = fc.tuple(
  fc.array(statement, { maxLength: 8 }),
  fc.array(statement, { maxLength: 4 }),
);
/** The SELECTs that come before the first other statement: what may travel with BEGIN. */
function leadingSelects(before: string[]): string[] {
  const firstHeld = before.findIndex((text) => !isSelect(text));
  return firstHeld === -1 ? before : before.slice(0, firstHeld);
}

function world(): {
  begin: Promise<void>;
  ok: () => void;
  fail: (error: Error) => void;
  sent: string[];
  issue: (text: string) => Promise<string>;
} {
  let ok!: () => void;
  let fail!: (error: Error) => void;
  const begin = new Promise<void>((resolve, reject) => {
    ok = resolve;
    fail = reject;
  });
  const gate = beginGate(begin);
  const sent: string[] = [];
  const issue = (text: string) =>
    gate(text, () => {
      sent.push(text);
      return Promise.resolve(text);
    });
  return { begin, ok, fail, sent, issue };
}

/** Lets every settled promise's reactions run. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('beginGate', () => {
  it('sends leading SELECTs with BEGIN and holds the rest until BEGIN answers, keeping the order', async () => {
    await fc.assert(
      fc.asyncProperty(batches, async ([before, after]) => {
        const w = world();
        const answers = before.map(w.issue);
        await settled();
        // Before BEGIN answers: only the SELECTs that come before the first other statement.
        const leading = leadingSelects(before);
        expect(w.sent).toEqual(leading);
        w.ok();
        await settled();
        answers.push(...after.map(w.issue));
        expect(await Promise.all(answers)).toEqual([...before, ...after]);
        // Every statement reached the server once, in the order it was issued.
        expect(w.sent).toEqual([...before, ...after]);
      }),
    );
  });

  it('when BEGIN fails, nothing but the leading SELECTs was sent and every other statement rejects with its error', async () => {
    await fc.assert(
      fc.asyncProperty(batches, async ([before, after]) => {
        const w = world();
        const outcomes = before.map((text) =>
          w.issue(text).then(
            () => 'sent',
            (e: Error) => e,
          ),
        );
        const failure = new Error('BEGIN failed');
        w.fail(failure);
        await settled();
        outcomes.push(
          ...after.map((text) =>
            w.issue(text).then(
              () => 'sent',
              (e: Error) => e,
            ),
          ),
        );
        const results = await Promise.all(outcomes);
        const leading = leadingSelects(before);
        expect(w.sent).toEqual(leading);
        expect(w.sent.every(isSelect)).toBe(true);
        expect(results).toEqual([
          ...leading.map(() => 'sent'),
          ...before.slice(leading.length).map(() => failure),
          ...after.map(() => failure),
        ]);
      }),
    );
  });

  it('sends everything at once after BEGIN has answered', async () => {
    const w = world();
    w.ok();
    await w.begin;
    await settled();
    void w.issue('INSERT INTO runs (id) VALUES ($1)');
    expect(w.sent).toEqual(['INSERT INTO runs (id) VALUES ($1)']);
  });
});
