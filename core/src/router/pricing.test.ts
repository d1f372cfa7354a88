import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunledgerError } from '../errors.js';
import { HOURLY_RATES, actualCost, hourlyRate, quote } from './pricing.js';

const invalid = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RunledgerError);
    expect((e as RunledgerError).code).toBe('invalid_input');
    return;
  }
  throw new Error('expected invalid_input');
};

describe('quote', () => {
  it('prices 2.5 h on gpu_a_96gb at 12.50 USD', () => {
    expect(quote('gpu_a_96gb', 2.5)).toEqual({
      node_class: 'gpu_a_96gb',
      hours: 2.5,
      hourly_rate: '5.00',
      amount: '12.50',
      currency: 'USD',
    });
  });

  it('prices 2.5 h on gpu_b_32gb at 5.00 USD and accepts hours as a numeric string', () => {
    expect(quote('gpu_b_32gb', '2.5')).toMatchObject({
      hours: 2.5,
      hourly_rate: '2.00',
      amount: '5.00',
    });
  });

  it.each([
    ['gpu_a_96gb', 0.001, '0.01'], // 0.005 rounds up
    ['gpu_b_32gb', 0.001, '0.00'], // 0.002 rounds down
    ['gpu_b_32gb', 0.0025, '0.01'], // exactly half a cent rounds up
    ['gpu_b_32gb', '0.00249999999999999999999999999', '0.00'], // no double rounding just below half
    ['gpu_a_96gb', 0.003, '0.02'], // 0.015 (binary floats would give 0.01)
    ['gpu_a_96gb', 1.001, '5.01'], // 5.005
    ['gpu_a_96gb', 8760, '43800.00'],
    ['gpu_b_32gb', '1.005', '2.01'],
  ])('rounds half-up to cents: %s × %s h = %s', (cls, hours, amount) => {
    expect(quote(cls, hours).amount).toBe(amount);
  });

  it('reads rates only from the frozen server table', () => {
    expect(Object.isFrozen(HOURLY_RATES)).toBe(true);
    expect(hourlyRate('gpu_a_96gb')).toBe('5.00');
    expect(hourlyRate('gpu_b_32gb')).toBe('2.00');
  });

  it.each([
    ['zero', 0],
    ['negative', -1],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['more than a year', 8760.01],
    ['absurd', 1e12],
    ['non-numeric text', 'two'],
    ['an exponent', '1e2'],
    ['a signed string', '-1'],
    ['padded text', ' 2'],
    ['an empty string', ''],
    ['hex', '0x10'],
    ['a boolean', true],
    ['null', null],
    ['an overly long string', '1.' + '0'.repeat(60)],
  ])('rejects %s hours with invalid_input', (_name, hours) => {
    invalid(() => quote('gpu_a_96gb', hours));
  });

  it.each([['gpu_c'], [''], ['GPU_A_96GB'], [undefined], ['__proto__'], ['toString']])(
    'rejects the unknown node class %s with invalid_input',
    (cls) => {
      invalid(() => quote(cls, 1));
    },
  );

  it('always gives a non-negative amount with exactly two decimals, matching integer-cent arithmetic', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('gpu_a_96gb', 'gpu_b_32gb'),
        fc.integer({ min: 1, max: 8_760_000 }),
        (cls, milliHours) => {
          const hours = `${Math.floor(milliHours / 1000)}.${String(milliHours % 1000).padStart(3, '0')}`;
          const { amount } = quote(cls, hours);
          expect(amount).toMatch(/^\d+\.\d{2}$/);
          // rate in cents × milli-hours = amount in 1/1000 cents; half-up to whole cents in integers.
          const rateCents = cls === 'gpu_a_96gb' ? 500 : 200;
          const milliCents = rateCents * milliHours;
          const cents = Math.floor(milliCents / 1000) + (milliCents % 1000 >= 500 ? 1 : 0);
          expect(amount).toBe(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);
        },
      ),
    );
  });

  it('gives two-decimal non-negative amounts for any accepted float', () => {
    fc.assert(
      fc.property(fc.double({ min: Number.MIN_VALUE, max: 8760, noNaN: true }), (hours) => {
        const { amount } = quote('gpu_a_96gb', hours);
        expect(amount).toMatch(/^\d+\.\d{2}$/);
        expect(Number(amount)).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

describe('actualCost', () => {
  const t0 = new Date('2025-01-01T00:00:00.000Z');
  const after = (ms: number) => new Date(t0.getTime() + ms);

  it('charges whole seconds from accept to complete at the hourly rate', () => {
    expect(actualCost('gpu_a_96gb', t0, after(2.5 * 3600_000))).toEqual({
      node_class: 'gpu_a_96gb',
      seconds: 9000,
      hourly_rate: '5.00',
      amount: '12.50',
      currency: 'USD',
    });
  });

  it.each([
    [0, 0, '0.00'],
    [999, 0, '0.00'], // a partial second is not charged
    [3_600, 3, '0.00'], // 3 s × 2.00/h = 0.001666…
    [9_000, 9, '0.01'], // 0.005 exactly rounds up
    [8_999, 8, '0.00'],
    [36_000_000, 36_000, '20.00'],
  ])('after %s ms on gpu_b_32gb charges %s s = %s', (ms, seconds, amount) => {
    expect(actualCost('gpu_b_32gb', t0, after(ms))).toMatchObject({ seconds, amount });
  });

  it('rejects a completion before acceptance and an invalid date', () => {
    invalid(() => actualCost('gpu_a_96gb', t0, after(-1)));
    invalid(() => actualCost('gpu_a_96gb', new Date(Number.NaN), t0));
    invalid(() => actualCost('gpu_x', t0, t0));
  });
});
