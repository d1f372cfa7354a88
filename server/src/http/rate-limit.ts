import { createHash } from 'node:crypto';
import type { Clock, Storage } from '@runledger/core/ports';
import { RateLimitedError } from './errors.js';

/** Counts hits on a key and throws a 429 error past the limit. */
export interface RateLimiter {
  hit(key: string): Promise<void>;
}

export interface StoredWindowOptions {
  /** Namespaces this limiter's keys (`auth_request_ip`…), so limiters never share a window. */
  name: string;
  limit: number;
  windowMs: number;
}

/**
 * A fixed window per key, counted in the database so every instance on one database shares it
 * (docs/operations.md, "Rate limits"). Windows are aligned to the epoch, so all instances agree on
 * where one starts; the key is stored as a SHA-256, never as an address or an e-mail. Ended windows
 * are deleted at most once per window per process.
 */
export class StoredWindowLimiter implements RateLimiter {
  private lastSweep = 0;

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly options: StoredWindowOptions,
  ) {}

  async hit(key: string): Promise<void> {
    const { name, limit, windowMs } = this.options;
    const now = this.clock.now().getTime();
    const start = now - (now % windowMs);
    const end = start + windowMs;
    const stored = `${name}:${createHash('sha256').update(key).digest('hex')}`;
    const hits = await this.storage.write((tx) => tx.rateLimits.hit(stored, iso(start), iso(end)));
    if (now - this.lastSweep >= windowMs) {
      this.lastSweep = now;
      await this.storage.write((tx) => tx.rateLimits.deleteExpired(iso(now)));
    }
    if (hits > limit) throw new RateLimitedError(Math.max(1, Math.ceil((end - now) / 1000)));
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
