import { describe, expect, it } from 'vitest';
import { RunledgerError } from '../errors.js';
import { IncidentIn } from '../schemas/incident.js';
import { recurringRuleKey } from './recurring.js';

function conflictMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof RunledgerError && error.code === 'conflict') return error.message;
    throw error;
  }
  throw new Error('expected a conflict');
}

describe('recurring_flag rule key', () => {
  const flagged = [
    { key: 'tone', runs: 3 },
    { key: 'cites', runs: 3 },
    { key: 'lang', runs: 2 },
    { key: 'once', runs: 1 },
  ];
  const here = new Set(['tone', 'cites', 'lang', 'once', 'never']);

  it('takes a given key flagged in two or more earlier runs', () => {
    expect(recurringRuleKey(flagged, here, 'lang')).toBe('lang');
    expect(recurringRuleKey(flagged, here, 'tone')).toBe('tone');
  });

  it('refuses a given key flagged in fewer than two earlier runs, saying how many', () => {
    expect(conflictMessage(() => recurringRuleKey(flagged, here, 'once'))).toContain(
      'in 1 earlier',
    );
    expect(conflictMessage(() => recurringRuleKey(flagged, here, 'never'))).toContain(
      'in 0 earlier',
    );
  });

  it('picks the most recurring key, ties broken by key, when none is given', () => {
    expect(recurringRuleKey(flagged, here)).toBe('cites');
    expect(
      recurringRuleKey(
        [
          { key: 'b', runs: 2 },
          { key: 'a', runs: 5 },
        ],
        new Set(['a', 'b']),
      ),
    ).toBe('a');
  });

  it('only counts keys flagged on this run: a run that never flagged the rule has nothing recurring', () => {
    expect(conflictMessage(() => recurringRuleKey(flagged, new Set(['lang']), 'tone'))).toContain(
      'not flagged on this run',
    );
    expect(recurringRuleKey(flagged, new Set(['lang', 'once']))).toBe('lang');
    expect(conflictMessage(() => recurringRuleKey(flagged, new Set()))).toContain('no rule key');
  });

  it('refuses when no key recurs', () => {
    expect(conflictMessage(() => recurringRuleKey([{ key: 'once', runs: 1 }], here))).toContain(
      'no rule key',
    );
    expect(conflictMessage(() => recurringRuleKey([], here))).toContain('no rule key');
  });
});

describe('IncidentIn', () => {
  it('says why single_flag is refused', () => {
    const parsed = IncidentIn.safeParse({ kind: 'single_flag', note: 'x' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/^single_flag is not an incident kind/);
  });

  it('needs a note and takes an optional rule_key', () => {
    expect(IncidentIn.safeParse({ kind: 'rogue' }).success).toBe(false);
    expect(IncidentIn.safeParse({ kind: 'rogue', note: '  ' }).success).toBe(false);
    expect(IncidentIn.parse({ kind: 'dark', note: 'n', rule_key: 'tone' })).toEqual({
      kind: 'dark',
      note: 'n',
      rule_key: 'tone',
    });
  });
});
