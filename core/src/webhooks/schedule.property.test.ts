import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  JITTER,
  MAX_RETRY_AFTER_SECONDS,
  STANDARD_RETRY_SECONDS,
  parseRetrySchedule,
  retryAfterSeconds,
  retryDelayMs,
} from './schedule.js';

const schedule = fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 12 });
const jitter = fc.double({ min: 0, max: 0.999999, noNaN: true });

describe('retryDelayMs', () => {
  it('waits the scheduled step plus at most the jitter fraction, and stops after the last step', () => {
    fc.assert(
      fc.property(schedule, fc.integer({ min: 1, max: 15 }), jitter, (steps, failures, j) => {
        const delay = retryDelayMs(steps, failures, j, null);
        if (failures > steps.length) {
          expect(delay).toBeNull();
          return;
        }
        const step = steps[failures - 1]! * 1000;
        expect(delay).toBeGreaterThanOrEqual(step);
        expect(delay).toBeLessThanOrEqual(Math.round(step * (1 + JITTER)));
      }),
    );
  });

  it('never comes back sooner than Retry-After asks (up to the cap), nor sooner than the schedule', () => {
    fc.assert(
      fc.property(schedule, jitter, fc.integer({ min: 0, max: 200_000 }), (steps, j, after) => {
        const delay = retryDelayMs(steps, 1, j, after)!;
        expect(delay).toBeGreaterThanOrEqual(Math.min(after, MAX_RETRY_AFTER_SECONDS) * 1000);
        expect(delay).toBeGreaterThanOrEqual(retryDelayMs(steps, 1, j, null)!);
      }),
    );
  });

  it('follows the Standard Webhooks schedule: ten attempts in all, the last about a day after the ninth', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) =>
      retryDelayMs(STANDARD_RETRY_SECONDS, n, 0, null),
    );
    expect(delays).toEqual([
      5e3,
      300e3,
      1800e3,
      7200e3,
      18000e3,
      36000e3,
      50400e3,
      72000e3,
      86400e3,
      null,
    ]);
  });

  it('parses WEBHOOK_RETRY_SECONDS and refuses anything but comma-separated seconds', () => {
    expect(parseRetrySchedule('0.2, 1,3')).toEqual([0.2, 1, 3]);
    for (const bad of ['', '1,,2', '-1', 'x', '1;2']) expect(parseRetrySchedule(bad)).toBeNull();
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    expect(retryAfterSeconds('7', now)).toBe(7);
    expect(retryAfterSeconds('Sun, 01 Mar 2026 12:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('soon', now)).toBeNull();
    expect(retryAfterSeconds(null, now)).toBeNull();
  });
});
