import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Storage } from '@runledger/core/ports';
import type { Pacer } from './pacer.js';
import { startWebhookWorker, type WebhookWorkerOptions } from './worker.js';

/** A storage whose outbox is always empty, counting the claim transactions the worker opens. */
function emptyOutbox() {
  let claims = 0;
  const storage = {
    write: (fn: (tx: unknown) => Promise<unknown>) =>
      fn({
        webhookOutbox: {
          claim: () => {
            claims += 1;
            return Promise.resolve([]);
          },
        },
      }),
  } as unknown as Storage;
  return { storage, claims: () => claims };
}

function optionsFor(storage: Storage, pacer?: Pacer): WebhookWorkerOptions {
  return {
    storage,
    box: { seal: () => '', open: () => '' },
    sender: { send: () => Promise.reject(new Error('nothing to send')), close: () => undefined },
    clock: { now: () => new Date(0) },
    logger: pino({ level: 'silent' }),
    schedule: [1],
    pollMs: 500,
    batch: 64,
    loops: 4,
    leaseMs: 60_000,
    ...(pacer === undefined ? {} : { pacer }),
  };
}

describe('an idle delivery worker', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('polls with one loop only: one claim transaction per poll interval, not one per loop', async () => {
    vi.useFakeTimers();
    const outbox = emptyOutbox();
    const worker = startWebhookWorker(optionsFor(outbox.storage));
    // Each loop looks once at start.
    await vi.advanceTimersByTimeAsync(1);
    expect(outbox.claims()).toBe(4);
    await vi.advanceTimersByTimeAsync(10 * 500);
    expect(outbox.claims()).toBe(4 + 10);
    // A wake makes every loop look at once.
    worker.wake();
    await vi.advanceTimersByTimeAsync(1);
    expect(outbox.claims()).toBe(4 + 10 + 4);
    await worker.stop();
  });

  it('claims nothing once stopped while the pacer held its rounds back', async () => {
    const outbox = emptyOutbox();
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const pacer: Pacer = { grant: (full) => held.then(() => full), yielding: true };
    const worker = startWebhookWorker(optionsFor(outbox.storage, pacer));
    await new Promise((resolve) => setImmediate(resolve));
    const stopped = worker.stop();
    release();
    await stopped;
    expect(outbox.claims()).toBe(0);
  });
});
