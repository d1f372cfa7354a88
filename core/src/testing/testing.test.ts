import { describe, expect, it } from 'vitest';
import { CapturingMailer, ManualClock } from './index.js';

describe('ManualClock', () => {
  it('stands still until advanced, then moves by exactly the given milliseconds', () => {
    const clock = new ManualClock(Date.parse('2025-03-01T12:00:00.000Z'));
    expect(clock.now().toISOString()).toBe('2025-03-01T12:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2025-03-01T12:00:00.000Z');
    clock.advance(1500);
    expect(clock.now().toISOString()).toBe('2025-03-01T12:00:01.500Z');
  });
});

describe('CapturingMailer', () => {
  it('keeps every message in order and reports how it was configured', async () => {
    const mailer = new CapturingMailer(true);
    await mailer.send({ to: 'a@example.com', subject: 'one', text: '1' });
    await mailer.send({ to: 'b@example.com', subject: 'two', text: '2' });
    expect(mailer.configured).toBe(true);
    expect(mailer.sent.map((m) => m.subject)).toEqual(['one', 'two']);
  });
});
