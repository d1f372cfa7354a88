import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FlightSheetInput, FlightSheetRule, RuleCheck } from '../schemas/flight-sheet.js';
import { CATEGORY_OF_OP } from '../schemas/flight-sheet.js';
import { type AuditableSheet, audit } from './audit.js';
import type { EvidenceSummary } from './finding.js';

function sheetOf(rules: FlightSheetRule[], schema: Record<string, unknown> = {}): AuditableSheet {
  const input: FlightSheetInput = {
    slug: 'test',
    name: 'Test',
    version: '1.0.0',
    lane: 'agent',
    summary: '',
    pass_threshold: 80,
    fail_threshold: 50,
    audit_checks: rules,
    required_output_schema: schema,
  };
  return input;
}

function autoRule(check: RuleCheck, optional = false): FlightSheetRule {
  return {
    key: 'rule',
    label: 'Rule',
    category: CATEGORY_OF_OP[check.op],
    kind: 'auto',
    severity: 'high',
    check,
    ...(optional ? { optional } : {}),
  };
}

/** Audits one auto rule and returns its check. */
function run(
  check: RuleCheck,
  submission: unknown,
  opts: { optional?: boolean; evidence?: EvidenceSummary[]; schema?: Record<string, unknown> } = {},
) {
  const result = audit(
    sheetOf([autoRule(check, opts.optional)], opts.schema),
    submission,
    opts.evidence ?? [],
  );
  expect(result.checks).toHaveLength(1);
  return result.checks[0]!;
}

describe('required', () => {
  const check: RuleCheck = { op: 'required', paths: ['/a', '/b/c'] };

  it('passes when every path holds a value', () => {
    expect(run(check, { a: 0, b: { c: false } })).toMatchObject({ status: 'pass' });
  });

  it.each([
    ['missing', { a: 1 }, /missing \/b\/c/],
    ['null', { a: null, b: { c: 1 } }, /null or empty \/a/],
    ['an empty string', { a: '', b: { c: 1 } }, /null or empty \/a/],
    ['a blank string', { a: '  ', b: { c: 1 } }, /null or empty \/a/],
    ['an empty list', { a: [], b: { c: 1 } }, /null or empty \/a/],
    ['an empty object', { a: 1, b: { c: {} } }, /null or empty \/b\/c/],
  ])('flags a path that is %s', (_name, submission, detail) => {
    expect(run(check, submission)).toMatchObject({
      status: 'flag',
      detail: expect.stringMatching(detail),
    });
  });

  it('skips an optional rule when none of its paths is present, and flags it when one is empty', () => {
    expect(run(check, {}, { optional: true }).status).toBe('skip');
    expect(run(check, { a: '' }, { optional: true }).status).toBe('flag');
  });
});

describe('schema', () => {
  const schema = {
    type: 'object',
    required: ['name', 'items'],
    properties: { name: { type: 'string' }, items: { type: 'array', items: { type: 'integer' } } },
  };

  it('passes a matching submission', () => {
    expect(run({ op: 'schema' }, { name: 'x', items: [1, 2] }, { schema }).status).toBe('pass');
  });

  it('flags a mismatch and names the instance pointers of the first errors', () => {
    const check = run({ op: 'schema' }, { name: 3, items: [1, 'two'] }, { schema });
    expect(check.status).toBe('flag');
    expect(check.detail).toContain('/name must be string');
    expect(check.detail).toContain('/items/1 must be integer');
  });

  it('reports a missing root property at the root pointer', () => {
    expect(run({ op: 'schema' }, { items: [] }, { schema }).detail).toContain(
      "/ must have required property 'name'",
    );
  });

  it('flags instead of throwing when the schema does not compile', () => {
    const check = run({ op: 'schema' }, {}, { schema: { type: 'strng' } });
    expect(check).toMatchObject({
      status: 'flag',
      detail: expect.stringContaining('does not compile'),
    });
  });
});

describe('sum', () => {
  const check: RuleCheck = { op: 'sum', items: '/steps', field: 'cost', equals: '/total' };

  it('adds decimals exactly (0.1 + 0.2 equals 0.3) from numbers and numeric strings', () => {
    const result = run(check, { steps: [{ cost: 0.1 }, { cost: '0.2' }], total: '0.3' });
    expect(result).toMatchObject({ status: 'pass', detail: expect.stringContaining('is 0.3') });
  });

  it('flags a total that disagrees', () => {
    const result = run(check, { steps: [{ cost: '1.00' }, { cost: '2.00' }], total: 3.01 });
    expect(result).toMatchObject({
      status: 'flag',
      detail: expect.stringContaining('/total is 3.01'),
    });
  });

  it('accepts a difference within the tolerance and flags one beyond it', () => {
    const tolerant: RuleCheck = { ...check, tolerance: '0.01' } as RuleCheck;
    expect(run(tolerant, { steps: [{ cost: 1 }], total: 1.01 }).status).toBe('pass');
    expect(run(tolerant, { steps: [{ cost: 1 }], total: 1.02 }).status).toBe('flag');
  });

  it('sums an empty list to zero', () => {
    expect(run(check, { steps: [], total: 0 }).status).toBe('pass');
  });

  it.each([
    [
      'a non-numeric item',
      { steps: [{ cost: 'ten' }], total: 10 },
      '/steps/0/cost is "ten", not a number',
    ],
    ['an item without the field', { steps: [{ price: 1 }], total: 1 }, '/steps/0/cost is missing'],
    ['a hex string', { steps: [{ cost: '0x10' }], total: 16 }, 'not a number'],
    ['a non-list', { steps: { cost: 1 }, total: 1 }, '/steps is not a list'],
    ['a non-numeric total', { steps: [], total: null }, '/total is null, not a number'],
    ['a missing total', { steps: [] }, '/total is missing'],
  ])('flags %s with a clear detail', (_name, submission, detail) => {
    expect(run(check, submission)).toMatchObject({
      status: 'flag',
      detail: expect.stringContaining(detail),
    });
  });

  it('skips when optional and its inputs are absent', () => {
    expect(run(check, {}, { optional: true }).status).toBe('skip');
    expect(run(check, { steps: [] }, { optional: true }).status).toBe('skip');
  });
});

describe('compare', () => {
  it.each([
    ['eq', 2, 2, true],
    ['eq', 2, 3, false],
    ['ne', 2, 3, true],
    ['ne', 2, 2, false],
    ['lt', 1, 2, true],
    ['lt', 2, 2, false],
    ['lte', 2, 2, true],
    ['lte', 3, 2, false],
    ['gt', 3, 2, true],
    ['gt', 2, 2, false],
    ['gte', 2, 2, true],
    ['gte', 1, 2, false],
  ] as const)('%s of %d and %d holds: %s', (cmp, left, right, holds) => {
    const result = run(
      { op: 'compare', left: '/l', cmp, right: '/r' },
      { l: String(left), r: right },
    );
    expect(result.status).toBe(holds ? 'pass' : 'flag');
  });

  it('compares against a literal number and compares decimals exactly', () => {
    expect(run({ op: 'compare', left: '/x', cmp: 'eq', right: 0.3 }, { x: '0.30' }).status).toBe(
      'pass',
    );
    const flagged = run({ op: 'compare', left: '/tax', cmp: 'gte', right: 0 }, { tax: -1 });
    expect(flagged).toMatchObject({ status: 'flag', detail: '/tax is -1; expected at least 0.' });
  });

  it('flags a non-numeric operand and a missing one, and skips an optional one', () => {
    const check: RuleCheck = { op: 'compare', left: '/a', cmp: 'lt', right: '/b' };
    expect(run(check, { a: 'x', b: 1 }).detail).toBe('/a is "x", not a number.');
    expect(run(check, { a: 1 }).detail).toBe('/b is missing.');
    expect(run(check, { a: 1 }, { optional: true }).status).toBe('skip');
  });
});

describe('evidence', () => {
  const check: RuleCheck = { op: 'evidence', min: 2, kinds: ['log', 'json'] };

  it('counts only evidence of the listed kinds', () => {
    expect(run(check, {}, { evidence: [{ kind: 'log' }, { kind: 'note' }] }).status).toBe('flag');
    expect(run(check, {}, { evidence: [{ kind: 'log' }, { kind: 'json' }] }).status).toBe('pass');
  });

  it('counts every kind when kinds is absent', () => {
    expect(run({ op: 'evidence', min: 1 }, {}, { evidence: [{ kind: 'url' }] }).status).toBe(
      'pass',
    );
    expect(run({ op: 'evidence', min: 1 }, {}, { evidence: [] })).toMatchObject({
      status: 'flag',
      detail: '0 evidence items attached; at least 1 required.',
    });
  });

  it('skips an optional rule when the run has no evidence', () => {
    expect(run(check, {}, { optional: true }).status).toBe('skip');
  });
});

describe('deny_terms', () => {
  const check: RuleCheck = { op: 'deny_terms', terms: ['Secret', 'drop table'] };

  it('finds a term case-insensitively in any nested string value and names where', () => {
    const result = run(check, { a: [{ b: 'my SECRET key' }] });
    expect(result).toMatchObject({
      status: 'flag',
      detail: expect.stringContaining('"Secret" at /a/0/b'),
    });
  });

  it('passes when no string value contains a term, ignoring keys and non-strings', () => {
    expect(run(check, { secret: 1, n: 42, ok: 'fine' }).status).toBe('pass');
  });

  it('treats terms as plain text, never as patterns', () => {
    expect(run({ op: 'deny_terms', terms: ['.*'] }, { a: 'anything' }).status).toBe('pass');
    expect(run({ op: 'deny_terms', terms: ['.*'] }, { a: 'x.*y' }).status).toBe('flag');
  });

  it('looks only under the given paths', () => {
    const scoped: RuleCheck = { op: 'deny_terms', terms: ['secret'], paths: ['/reply'] };
    expect(run(scoped, { reply: 'ok', notes: 'secret' }).status).toBe('pass');
    expect(run(scoped, { reply: { body: 'a secret' } }).status).toBe('flag');
    expect(run(scoped, { notes: 'secret' }, { optional: true }).status).toBe('skip');
  });
});

describe('allow_values', () => {
  const check: RuleCheck = { op: 'allow_values', path: '/status', values: ['done', 1] };

  it('passes an allowed value and flags another one', () => {
    expect(run(check, { status: 'done' }).status).toBe('pass');
    expect(run(check, { status: 'failed' })).toMatchObject({
      status: 'flag',
      detail: '/status has "failed", not one of "done", 1.',
    });
  });

  it('compares types strictly: the string "1" is not the number 1', () => {
    expect(run(check, { status: 1 }).status).toBe('pass');
    expect(run(check, { status: '1' }).status).toBe('flag');
  });

  it('checks every element of a list', () => {
    expect(run(check, { status: ['done', 1] }).status).toBe('pass');
    expect(run(check, { status: ['done', 'x'] }).status).toBe('flag');
  });

  it('flags a missing value unless the rule is optional', () => {
    expect(run(check, {}).status).toBe('flag');
    expect(run(check, {}, { optional: true }).status).toBe('skip');
  });
});

describe('audit', () => {
  const rules: FlightSheetRule[] = [
    { ...autoRule({ op: 'required', paths: ['/a'] }), key: 'a', severity: 'minor' },
    {
      key: 'review',
      label: 'Review',
      category: 'policy',
      kind: 'checklist',
      severity: 'jelly',
      guidance: 'Read it.',
    },
  ];

  it('opens checklist rules with their guidance and asks for grading', () => {
    const result = audit(sheetOf(rules), { a: 1 }, []);
    expect(result.deterministic).toBe(false);
    expect(result.needs_grading).toBe(true);
    expect(result.checks).toEqual([
      {
        key: 'a',
        label: 'Rule',
        category: 'structure',
        kind: 'auto',
        severity: 'minor',
        tier: 'low',
        status: 'pass',
        detail: '/a is present.',
      },
      {
        key: 'review',
        label: 'Review',
        category: 'policy',
        kind: 'checklist',
        severity: 'jelly',
        tier: 'mid',
        status: 'open',
        detail: 'Read it.',
      },
    ]);
  });

  it('is deterministic and needs no grading when every rule is automatic', () => {
    const result = audit(sheetOf([rules[0]!]), {}, []);
    expect(result).toMatchObject({ deterministic: true, needs_grading: false });
    expect(result.checks[0]!.status).toBe('flag');
  });

  it('never throws and writes a short sentence for any JSON submission', () => {
    const sheet = sheetOf(
      [
        autoRule({ op: 'required', paths: ['/a', '/a/0'] }),
        autoRule({ op: 'schema' }),
        autoRule({ op: 'sum', items: '/a', field: 'x', equals: '/t' }),
        autoRule({ op: 'compare', left: '/t', cmp: 'gt', right: '/a/0/x' }),
        autoRule({ op: 'deny_terms', terms: ['x'] }),
        autoRule({ op: 'allow_values', path: '/t', values: [1] }),
      ],
      { type: 'object' },
    );
    fc.assert(
      fc.property(fc.jsonValue(), (submission) => {
        for (const check of audit(sheet, submission, []).checks) {
          expect(['pass', 'flag']).toContain(check.status);
          expect(check.detail).toMatch(/^\S.*\.$/s);
        }
      }),
    );
  });
});

describe('audit robustness', () => {
  it('scans deeply nested submissions without overflowing the stack', () => {
    let deep: unknown = 'the secret';
    for (let i = 0; i < 20_000; i += 1) deep = [deep];
    const result = audit(sheetOf([autoRule({ op: 'deny_terms', terms: ['secret'] })]), deep, []);
    expect(result.checks[0]!.status).toBe('flag');
  });

  it('lists denied terms in document order', () => {
    const result = audit(
      sheetOf([autoRule({ op: 'deny_terms', terms: ['x'] })]),
      { a: { b: 'x1', c: ['x2', 'x3'] }, d: 'x4' },
      [],
    );
    expect(result.checks[0]!.detail).toBe(
      'Denied terms found: "x" at /a/b, "x" at /a/c/0, "x" at /a/c/1 and 1 more.',
    );
  });

  it('validates each sheet against its own schema even when two sheets share a hash label', () => {
    const strict = { ...sheetOf([autoRule({ op: 'schema' })], { type: 'string' }), sha256: 'same' };
    const loose = { ...sheetOf([autoRule({ op: 'schema' })], {}), sha256: 'same' };
    expect(audit(strict, 1, []).checks[0]!.status).toBe('flag');
    expect(audit(loose, 1, []).checks[0]!.status).toBe('pass');
  });
});
