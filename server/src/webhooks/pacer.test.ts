import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPacer, DEFAULT_PACING, type PacerOptions } from './pacer.js';

/** A clock that moves only when every waiter is parked: `settle` runs the timers in order. */
function fakeTime() {
  let now = 0;
  const timers: { at: number; resolve: () => void }[] = [];
  const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    now: () => now,
    wait: (ms: number) =>
      new Promise<void>((resolve) => {
        timers.push({ at: now + ms, resolve });
      }),
    /** Fires due timers, earliest first, until `done` settles. */
    async settle<T>(done: Promise<T>): Promise<T> {
      let finished = false;
      void done.finally(() => {
        finished = true;
      });
      await flush();
      while (!finished) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers.shift();
        if (next === undefined) throw new Error('a grant waits on nothing');
        now = Math.max(now, next.at);
        next.resolve();
        await flush();
      }
      return done;
    },
  };
}

/** A meter that reads `readings` in turn, then repeats the last one. */
function meterOf(readings: number[]) {
  let i = 0;
  return () => readings[Math.min(i++, readings.length - 1)]!;
}

function pacerWith(readings: number[], time = fakeTime(), extra: Partial<PacerOptions> = {}) {
  const pacer = createPacer({
    ...DEFAULT_PACING,
    meter: meterOf(readings),
    now: time.now,
    wait: time.wait,
    ...extra,
  });
  return { pacer, time };
}

describe('the delivery pacer', () => {
  it('keeps the full batch while the loop has room', async () => {
    const { pacer, time } = pacerWith([0.3]);
    for (let i = 0; i < 5; i++) expect(await time.settle(pacer.grant(64))).toBe(64);
    expect(pacer.yielding).toBe(false);
    expect(time.now()).toBe(0);
  });

  it('yields to a saturating load that is not its own: small rounds, one per interval', async () => {
    const { pacer, time } = pacerWith([1]);
    expect(await time.settle(pacer.grant(64))).toBe(DEFAULT_PACING.yieldBatch);
    expect(pacer.yielding).toBe(true);
    const starts: number[] = [];
    for (let i = 0; i < 4; i++) {
      expect(await time.settle(pacer.grant(64))).toBe(DEFAULT_PACING.yieldBatch);
      starts.push(time.now());
    }
    for (let i = 1; i < starts.length; i++) {
      expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(DEFAULT_PACING.yieldMs);
    }
  });

  it('keeps its pace when the load was its own: the loop went quiet while it paused', async () => {
    // Saturated at the look; then the pause's readings (the last one quiet); then saturated again.
    const { pacer, time } = pacerWith([1, 1, 1, 0.05, 1]);
    expect(await time.settle(pacer.grant(64))).toBe(64);
    expect(pacer.yielding).toBe(false);
    // No second pause before ownLoadMs has passed, saturated or not.
    const paused = time.now();
    expect(await time.settle(pacer.grant(64))).toBe(64);
    expect(time.now()).toBe(paused);
  });

  it('returns to full pace when the load falls', async () => {
    const { pacer, time } = pacerWith([1, 1, 1, 1, 0.2]);
    expect(await time.settle(pacer.grant(64))).toBe(DEFAULT_PACING.yieldBatch);
    expect(await time.settle(pacer.grant(64))).toBe(64);
    expect(pacer.yielding).toBe(false);
  });

  it('shares one slot per interval across loops that ask at once', async () => {
    const { pacer, time } = pacerWith([1]);
    await time.settle(pacer.grant(64));
    const at: number[] = [];
    const loops = Array.from({ length: 4 }, () =>
      pacer.grant(64).then((n) => {
        at.push(time.now());
        return n;
      }),
    );
    expect(await time.settle(Promise.all(loops))).toEqual(Array(4).fill(DEFAULT_PACING.yieldBatch));
    at.sort((a, b) => a - b);
    for (let i = 1; i < at.length; i++) {
      expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(DEFAULT_PACING.yieldMs);
    }
  });

  it('never starves and never exceeds its floor while yielding, whatever the load (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 256 }),
        async (readings, full) => {
          const { pacer, time } = pacerWith(readings);
          let lastYieldStart = -Infinity;
          for (let i = 0; i < 40; i++) {
            const before = time.now();
            const granted = await time.settle(pacer.grant(full));
            // Every round gets something: the full batch, or the floor's.
            expect([full, Math.min(full, DEFAULT_PACING.yieldBatch)]).toContain(granted);
            expect(granted).toBeGreaterThan(0);
            // A grant waits at most a pause and one interval.
            expect(time.now() - before).toBeLessThanOrEqual(
              DEFAULT_PACING.probeMs + DEFAULT_PACING.yieldMs,
            );
            if (pacer.yielding) {
              expect(time.now() - lastYieldStart).toBeGreaterThanOrEqual(DEFAULT_PACING.yieldMs);
              lastYieldStart = time.now();
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
