import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunledgerError } from '../errors.js';
import type { CheckStatus, TierLevel } from '../schemas/enums.js';
import { computeVerdict } from './compute.js';

type C = { status: CheckStatus; tier: TierLevel };
const sheet = { pass_threshold: 80, fail_threshold: 50 };
const c = (status: CheckStatus, tier: TierLevel): C => ({ status, tier });

describe('computeVerdict', () => {
  it('scores 100 and passes with honey when nothing was graded', () => {
    expect(computeVerdict([c('skip', 'high')], sheet)).toEqual({
      severity: 'honey',
      outcome: 'pass',
      score: 100,
      pass_threshold: 80,
      fail_threshold: 50,
      counts: { pass: 0, flag: 0, open: 0, skip: 1 },
    });
    expect(computeVerdict([], sheet).score).toBe(100);
  });

  it('weighs high 5, mid 3, low 1 and floors the score', () => {
    // passed 3 + 1 = 4 of 5 + 3 + 1 = 9: floor(44.4) = 44
    const verdict = computeVerdict([c('flag', 'high'), c('pass', 'mid'), c('pass', 'low')], sheet);
    expect(verdict.score).toBe(44);
    expect(verdict.counts).toEqual({ pass: 2, flag: 1, open: 0, skip: 0 });
  });

  it('passes at exactly pass_threshold and is at risk one point below', () => {
    // 4 of 5 low-tier checks passed: 80
    const eighty = [...Array(4).fill(c('pass', 'low')), c('flag', 'low')] as C[];
    expect(computeVerdict(eighty, sheet)).toMatchObject({
      score: 80,
      outcome: 'pass',
      severity: 'honey',
    });
    expect(computeVerdict(eighty, { pass_threshold: 81, fail_threshold: 50 }).outcome).toBe('risk');
  });

  it('is at risk at exactly fail_threshold and fails one point below', () => {
    const fifty = [c('pass', 'low'), c('flag', 'low')];
    expect(computeVerdict(fifty, sheet)).toMatchObject({ score: 50, outcome: 'risk' });
    expect(computeVerdict(fifty, { pass_threshold: 80, fail_threshold: 51 }).outcome).toBe('fail');
  });

  it('never passes with a high-tier flag, whatever the score', () => {
    const checks = [...Array(100).fill(c('pass', 'high')), c('flag', 'high')] as C[];
    const verdict = computeVerdict(checks, sheet);
    expect(verdict.score).toBe(99);
    expect(verdict).toMatchObject({ outcome: 'risk', severity: 'propolis' });
  });

  it('names the worst flagged tier as severity', () => {
    expect(computeVerdict([c('flag', 'low'), c('pass', 'high')], sheet).severity).toBe('honey');
    expect(computeVerdict([c('flag', 'low'), c('flag', 'mid')], sheet).severity).toBe('jelly');
    expect(
      computeVerdict([c('flag', 'mid'), c('flag', 'high'), c('flag', 'low')], sheet).severity,
    ).toBe('propolis');
  });

  it('refuses with a conflict while a check is open', () => {
    const attempt = () => computeVerdict([c('pass', 'low'), c('open', 'mid')], sheet);
    expect(attempt).toThrow(RunledgerError);
    expect(attempt).toThrow('1 check is still open');
    try {
      attempt();
    } catch (error) {
      expect((error as RunledgerError).code).toBe('conflict');
    }
  });

  const graded = fc.array(
    fc.record({
      status: fc.constantFrom<CheckStatus>('pass', 'flag', 'skip'),
      tier: fc.constantFrom<TierLevel>('low', 'mid', 'high'),
    }),
    { maxLength: 60 },
  );
  const thresholds = fc
    .tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }))
    .map(([a, b]) => ({ pass_threshold: Math.max(a, b), fail_threshold: Math.min(a, b) }));

  it('always scores an integer from 0 to 100 and gives an outcome consistent with it', () => {
    fc.assert(
      fc.property(graded, thresholds, (checks, t) => {
        const verdict = computeVerdict(checks, t);
        expect(Number.isInteger(verdict.score)).toBe(true);
        expect(verdict.score).toBeGreaterThanOrEqual(0);
        expect(verdict.score).toBeLessThanOrEqual(100);
        if (verdict.outcome === 'fail') expect(verdict.score).toBeLessThan(t.fail_threshold);
        if (verdict.outcome === 'pass')
          expect(verdict.score).toBeGreaterThanOrEqual(t.pass_threshold);
      }),
    );
  });

  it('never lowers the score when a passing check is added', () => {
    fc.assert(
      fc.property(graded, fc.constantFrom<TierLevel>('low', 'mid', 'high'), (checks, tier) => {
        const before = computeVerdict(checks, sheet).score;
        const after = computeVerdict([...checks, c('pass', tier)], sheet).score;
        expect(after).toBeGreaterThanOrEqual(before);
      }),
    );
  });
});
