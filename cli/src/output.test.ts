import { describe, expect, it } from 'vitest';
import { tokenFrom } from './commands/auth.js';
import { fields, morePages, table } from './output.js';

describe('text output', () => {
  it('aligns table columns to the widest cell and shows missing values as -', () => {
    const rows = [
      { id: 'a', name: 'Reports', note: null },
      { id: 'bbbb', name: 'X', note: 'ok' },
    ];
    expect(
      table(rows, [
        ['ID', (r) => r.id],
        ['NAME', (r) => r.name],
        ['NOTE', (r) => r.note],
      ]),
    ).toBe(['ID    NAME     NOTE', 'a     Reports  -', 'bbbb  X        ok'].join('\n'));
  });

  it('says (none) for an empty list and hints at the next page only when there is one', () => {
    expect(table([], [['ID', () => 'x']])).toBe('(none)');
    expect(morePages(null, '--after')).toBe('');
    expect(morePages('c1', '--after')).toBe('\n(more: --after c1)');
  });

  it('aligns label: value pairs', () => {
    expect(
      fields([
        ['id', 1],
        ['status', 'ok'],
      ]),
    ).toBe('id:     1\nstatus: ok');
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
