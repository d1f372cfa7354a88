import { describe, expect, it } from 'vitest';
import { RunledgerError } from '../errors.js';
import { MEMBERSHIP_PRICE, membershipActive, membershipExpiry } from './membership.js';

describe('membership', () => {
  it('costs 100.00', () => {
    expect(MEMBERSHIP_PRICE).toBe('100.00');
  });

  it('runs one calendar year to the millisecond', () => {
    expect(membershipExpiry(new Date('2025-03-14T09:26:53.589Z')).toISOString()).toBe(
      '2026-03-14T09:26:53.589Z',
    );
    expect(membershipExpiry(new Date('2023-03-01T00:00:00.000Z')).toISOString()).toBe(
      '2024-03-01T00:00:00.000Z',
    );
  });

  it('ends on 28 February when activated on 29 February', () => {
    expect(membershipExpiry(new Date('2024-02-29T12:00:00.000Z')).toISOString()).toBe(
      '2025-02-28T12:00:00.000Z',
    );
  });

  it('does not mutate the activation date and rejects an invalid one', () => {
    const at = new Date('2025-01-01T00:00:00.000Z');
    membershipExpiry(at);
    expect(at.toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(() => membershipExpiry(new Date(Number.NaN))).toThrow(RunledgerError);
  });

  it('is active strictly before expiry and never without activation', () => {
    const expires = new Date('2026-01-01T00:00:00.000Z');
    expect(membershipActive(expires, new Date('2025-12-31T23:59:59.999Z'))).toBe(true);
    expect(membershipActive(expires, expires)).toBe(false);
    expect(membershipActive(null, expires)).toBe(false);
  });
});
