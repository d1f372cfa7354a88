import { afterEach, describe, expect, it } from 'vitest';
import { tokenFrom } from './commands/auth.js';
import { fields, jsonMode, pick, table } from './output.js';

const stdout = process.stdout as { isTTY?: boolean };
const wasTTY = stdout.isTTY;
const onTerminal = (tty: boolean) => {
  stdout.isTTY = tty;
};

describe('text output', () => {
  afterEach(() => {
    stdout.isTTY = wasTTY;
  });
  const rows = [
    { id: 'a', name: 'Reports', note: null },
    { id: 'bbbb', name: 'X', note: 'ok\tfine' },
  ];
  const columns = [
    ['ID', (r: (typeof rows)[number]) => r.id],
    ['NAME', (r: (typeof rows)[number]) => r.name],
    ['NOTE', (r: (typeof rows)[number]) => r.note],
  ] as const;

  it('on a terminal, aligns table columns under a header and shows missing values as -', () => {
    onTerminal(true);
    const env = process.env.NO_COLOR;
    process.env.NO_COLOR = '1';
    try {
      expect(table(rows, columns)).toBe(
        ['ID    NAME     NOTE', 'a     Reports  -', 'bbbb  X        ok\tfine'].join('\n'),
      );
      expect(table([], [['ID', () => 'x']])).toBe('(none)');
      expect(
        fields([
          ['id', 1],
          ['status', 'ok'],
        ]),
      ).toBe('id:     1\nstatus: ok');
    } finally {
      if (env === undefined) delete process.env.NO_COLOR;
      else process.env.NO_COLOR = env;
    }
  });

  it('for a pipe, prints tab-separated rows without a header, tabs inside cells flattened', () => {
    onTerminal(false);
    expect(table(rows, columns)).toBe(['a\tReports\t-', 'bbbb\tX\tok fine'].join('\n'));
    expect(table([], [['ID', () => 'x']])).toBe('');
    expect(fields([['status', 'ok']])).toBe('status:\tok');
  });
});

describe('--json field selection', () => {
  it('reads bare --json as the whole answer and a list as field names', () => {
    expect(jsonMode(undefined)).toBe(false);
    expect(jsonMode('')).toEqual({ fields: null });
    expect(jsonMode('id, state')).toEqual({ fields: ['id', 'state'] });
    expect(() => jsonMode('id,run_1 x')).toThrow('not "run_1 x"');
  });

  it('keeps only the named fields, in the order asked, and names the ones a record lacks', () => {
    const record = { id: 'r1', state: 'draft', title: 't', verdict: null };
    expect(pick(record, ['state', 'id', 'verdict'])).toEqual({
      state: 'draft',
      id: 'r1',
      verdict: null,
    });
    expect(Object.keys(pick(record, ['title', 'id']))).toEqual(['title', 'id']);
    expect(() => pick(record, ['id', 'nope'])).toThrow(
      'unknown JSON field "nope"; available: id, state, title, verdict',
    );
  });
});

describe('a pasted sign-in link', () => {
  it('yields its token, and a bare token is taken as is', () => {
    expect(tokenFrom(' https://runledger.example/auth/verify?token=abc_DEF-1 \n')).toBe(
      'abc_DEF-1',
    );
    expect(tokenFrom('abc_DEF-1')).toBe('abc_DEF-1');
    expect(() => tokenFrom('https://runledger.example/auth/verify')).toThrow('no token');
    expect(() => tokenFrom('   ')).toThrow('no token given');
  });
});
