import type { Clock } from '@runledger/core/ports';
import { RateLimitedError } from './errors.js';

/**
 * A fixed-window counter per key, in memory: enough for one process. Windows that have
 * ended are swept as new keys arrive, so memory stays bounded by the keys of one window.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one hit for `key`; throws a 429 error once the window's limit is passed. */
  hit(key: string): void {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count > this.limit) {
      const retryAfterMs = window.start + this.windowMs - now;
      throw new RateLimitedError(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    }
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) {
      if (now - window.start >= this.windowMs) this.windows.delete(key);
    }
  }
}
