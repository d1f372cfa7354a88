import { describe, expect, it } from 'vitest';
import type { CheckDraft } from '../schemas/check.js';
import { computeVerdict } from '../verdict/compute.js';
import { tribunalVerdict } from './verdict.js';

const sheet = { pass_threshold: 80, fail_threshold: 50 };
const check = (status: CheckDraft['status'], tier: CheckDraft['tier']) => ({ status, tier });

describe('tribunalVerdict', () => {
  it('equals computeVerdict when no check is open', () => {
    const checks = [check('pass', 'high'), check('flag', 'low'), check('skip', 'mid')];
    expect(tribunalVerdict(checks, sheet)).toEqual(computeVerdict(checks, sheet));
  });

  it('turns a pass into risk while checklist checks stay open, and counts them', () => {
    const verdict = tribunalVerdict([check('pass', 'high'), check('open', 'high')], sheet);
    expect(verdict).toMatchObject({ outcome: 'risk', score: 100, severity: 'honey' });
    expect(verdict.counts).toEqual({ pass: 1, flag: 0, open: 1, skip: 0 });
  });

  it('keeps a fail a fail with open checks', () => {
    const verdict = tribunalVerdict([check('flag', 'high'), check('open', 'low')], sheet);
    expect(verdict).toMatchObject({ outcome: 'fail', score: 0, severity: 'propolis' });
  });
});
