import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '@runledger/adapters';
import type { Storage } from '@runledger/core/ports';
import { ManualClock } from '@runledger/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RateLimitedError } from './errors.js';
import { StoredWindowLimiter } from './rate-limit.js';

const WINDOW_MS = 600_000;

describe('StoredWindowLimiter over a real SQLite file', () => {
  let dir: string;
  let storage: Storage;
  // 2030-01-01T12:00:00Z is a multiple of 600 s: the clock starts at a window's first millisecond.
  let clock: ManualClock;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-limit-'));
    storage = await openSqliteStorage({ file: join(dir, 'db.sqlite') });
    clock = new ManualClock();
  });
  afterEach(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  const limiter = (name = 'test', limit = 2) =>
    new StoredWindowLimiter(storage, clock, { name, limit, windowMs: WINDOW_MS });

  const refusal = (promise: Promise<void>) =>
    promise.then(
      () => null,
      (error: unknown) => error,
    );

  it('refuses past the limit with the seconds left in the window, and starts over in the next window', async () => {
    const limit = limiter();
    await limit.hit('a');
    clock.advance(100_000);
    await limit.hit('a');
    const refused = await refusal(limit.hit('a'));
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(500);
    // Another key, and the same key in another limiter, have windows of their own.
    await limit.hit('b');
    await limiter('other').hit('a');
    clock.advance(500_000);
    await limit.hit('a');
  });

  it('deletes ended windows: a key whose window ended counts from 1 again', async () => {
    const limit = limiter('sweep', 1);
    await limit.hit('a');
    clock.advance(WINDOW_MS);
    await limit.hit('b');
    const windows = await storage.write((tx) =>
      tx.rateLimits.deleteExpired(new Date(clock.now().getTime() + WINDOW_MS).toISOString()),
    );
    // Only b's window was left: a's was deleted by the limiter's own sweep.
    expect(windows).toBe(1);
  });
});
