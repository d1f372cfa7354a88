import type { Clock } from '../ports/clock.js';

/** A clock that stands still until the test moves it: expiry without sleeping. */
export class ManualClock implements Clock {
  constructor(private ms = Date.parse('2030-01-01T12:00:00.000Z')) {}

  now(): Date {
    return new Date(this.ms);
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}
