import { describe, expect, it } from 'vitest';
import { RuleSeverity } from '../schemas/enums.js';
import { tierOf } from './tier-of.js';

describe('tierOf', () => {
  it.each([
    ['critical', 'high'],
    ['high', 'high'],
    ['propolis', 'high'],
    ['mid', 'mid'],
    ['medium', 'mid'],
    ['jelly', 'mid'],
    ['low', 'low'],
    ['noncritical', 'low'],
    ['minor', 'low'],
    ['honey', 'low'],
  ] as const)('maps %s to %s', (severity, tier) => {
    expect(tierOf(severity)).toBe(tier);
  });

  it('covers every RuleSeverity value (the table above lists each once)', () => {
    expect(RuleSeverity.options).toHaveLength(10);
    for (const severity of RuleSeverity.options) {
      expect(['low', 'mid', 'high']).toContain(tierOf(severity));
    }
  });
});
