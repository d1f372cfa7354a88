import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Settled } from '@runledger/core/ports';
import { BatchQueue, type QueueOptions } from './queue.js';

interface Ask {
  key: string;
  n: number;
  /** This ask alone fails. */
  fails: boolean;
}

/** Lets every pending promise callback and a macrotask run, so queued asks meet a running batch. */
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function queue<A, R>(
  max: number,
  run: (key: string, asks: readonly A[]) => Promise<readonly Settled<R>[]>,
  start: QueueOptions['start'] = 'now',
): (key: string, ask: A) => Promise<R> {
  const batches = new BatchQueue<A, R>({ max, start }, run);
  return (key, ask) => batches.submit(key, ask);
}

describe('BatchQueue', () => {
  it('settles every ask with its own outcome, in arrival order per key, one batch per key at a time, at most max each (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            key: fc.constantFrom('a', 'b', 'c'),
            fails: fc.boolean(),
            // How many macrotasks pass before the next ask arrives.
            gap: fc.integer({ min: 0, max: 2 }),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 5 }),
        // Batches (by their number, from 0) whose run throws as a whole.
        fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 5 }),
        fc.constantFrom<QueueOptions['start']>('now', 'turn'),
        async (plan, max, throwing, start) => {
          const running = new Set<string>();
          const batches: { key: string; asks: Ask[] }[] = [];
          const submit = queue<Ask, number>(
            max,
            async (key, asks) => {
              expect(running.has(key)).toBe(false);
              running.add(key);
              const at = batches.push({ key, asks: [...asks] }) - 1;
              await tick();
              running.delete(key);
              if (throwing.includes(at)) throw new Error(`batch ${at}`);
              return asks.map((a): Settled<number> =>
                a.fails ? { ok: false, error: new Error(`ask ${a.n}`) } : { ok: true, value: a.n },
              );
            },
            start,
          );

          const settled: Promise<string>[] = [];
          for (const [n, step] of plan.entries()) {
            settled.push(
              submit(step.key, { key: step.key, n, fails: step.fails }).then(
                (value) => `ok ${value}`,
                (error: Error) => error.message,
              ),
            );
            for (let i = 0; i < step.gap; i++) await tick();
          }
          const outcomes = await Promise.all(settled);

          // Every ask went into exactly one batch of its own key, at most `max` per batch, and a
          // key's batches hold its asks in arrival order.
          for (const b of batches) {
            expect(b.asks.length).toBeGreaterThan(0);
            expect(b.asks.length).toBeLessThanOrEqual(max);
            for (const a of b.asks) expect(a.key).toBe(b.key);
          }
          for (const key of ['a', 'b', 'c']) {
            const inBatches = batches
              .filter((b) => b.key === key)
              .flatMap((b) => b.asks.map((a) => a.n));
            const arrived = plan.flatMap((s, n) => (s.key === key ? [n] : []));
            expect(inBatches).toEqual(arrived);
          }
          // Each ask's answer is its own: its value, its own failure, or its batch's throw.
          const batchOf = new Map<number, number>();
          batches.forEach((b, at) => b.asks.forEach((a) => batchOf.set(a.n, at)));
          plan.forEach((step, n) => {
            const at = batchOf.get(n)!;
            const want = throwing.includes(at)
              ? `batch ${at}`
              : step.fails
                ? `ask ${n}`
                : `ok ${n}`;
            expect(outcomes[n]).toBe(want);
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('starts a batch at once for an idle key, and gathers the asks that arrive while it runs', async () => {
    const sizes: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const submit = queue<number, number>(10, async (_key, asks) => {
      sizes.push(asks.length);
      if (sizes.length === 1) await gate;
      return asks.map((n) => ({ ok: true, value: n * 2 }));
    });
    const first = submit('k', 1);
    await tick();
    expect(sizes).toEqual([1]);
    const rest = [2, 3, 4].map((n) => submit('k', n));
    await tick();
    expect(sizes).toEqual([1]);
    release();
    expect(await Promise.all([first, ...rest])).toEqual([2, 4, 6, 8]);
    expect(sizes).toEqual([1, 3]);
  });

  it('fails every ask of a batch whose run settles the wrong number of asks', async () => {
    const submit = queue<number, number>(10, async () => [{ ok: true, value: 1 }]);
    const first = submit('k', 1);
    const second = submit('k', 2);
    const third = submit('k', 3);
    expect(await first).toBe(1);
    await expect(second).rejects.toThrow('a batch of 2 asks settled 1');
    await expect(third).rejects.toThrow('a batch of 2 asks settled 1');
  });

  it('with start "turn", lets the asks of the same turn start together', async () => {
    const sizes: number[] = [];
    const submit = queue<number, number>(
      10,
      async (_key, asks) => {
        sizes.push(asks.length);
        return asks.map((n) => ({ ok: true, value: n }));
      },
      'turn',
    );
    expect(await Promise.all([1, 2, 3].map((n) => submit('k', n)))).toEqual([1, 2, 3]);
    expect(sizes).toEqual([3]);
  });

  it('settles what is queued on close, then refuses new asks', async () => {
    const batches = new BatchQueue<number, number>({ max: 2, start: 'turn' }, async (_key, asks) =>
      asks.map((n) => ({ ok: true, value: n })),
    );
    const queued = [1, 2, 3].map((n) => batches.submit('k', n));
    await batches.close();
    expect(await Promise.all(queued)).toEqual([1, 2, 3]);
    expect(batches.stats).toEqual({ batches: 2, asks: 3 });
    await expect(batches.submit('k', 4)).rejects.toThrow('storage is closed');
  });
});
