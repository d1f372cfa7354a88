import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anchorQueue, type AnchorState } from './anchor-queue.js';

const state = (lineCount: number): AnchorState => ({ lineCount, headChecksum: `c${lineCount}` });
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A writer whose writes finish when the test says, one by one, and can be told to fail. */
function manualWriter() {
  const written = new Map<string, number>();
  const log: Array<{ file: string; lineCount: number }> = [];
  const open: Array<{ finish: () => void }> = [];
  let failNext = 0;
  let concurrent = 0;
  let maxConcurrent = 0;
  const write = (file: string, s: AnchorState) =>
    new Promise<void>((resolve, reject) => {
      concurrent += 1;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      const fails = failNext > 0;
      if (fails) failNext -= 1;
      open.push({
        finish: () => {
          concurrent -= 1;
          if (fails) return reject(new Error(`disk full writing ${file}`));
          written.set(file, s.lineCount);
          log.push({ file, lineCount: s.lineCount });
          resolve();
        },
      });
    });
  return {
    write,
    written,
    log,
    failNextWrites: (n: number) => (failNext = n),
    finishOne: () => open.shift()?.finish(),
    pending: () => open.length,
    maxConcurrent: () => maxConcurrent,
  };
}

describe('anchorQueue', () => {
  it('returns from mark at once, writes one anchor at a time, never goes back to an older state, and ends with each file’s newest (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ mark: fc.constantFrom('a', 'b', 'c') }),
            fc.record({ finish: fc.constant(true) }),
            fc.record({ fail: fc.integer({ min: 1, max: 2 }) }),
          ),
          { minLength: 1, maxLength: 40 },
        ),
        async (steps) => {
          const writer = manualWriter();
          const queue = anchorQueue(writer.write);
          const lines = new Map<string, number>();
          for (const step of steps) {
            if ('mark' in step) {
              const n = (lines.get(step.mark) ?? 0) + 1;
              lines.set(step.mark, n);
              queue.mark(step.mark, state(n));
            } else if ('finish' in step) {
              writer.finishOne();
            } else {
              writer.failNextWrites(step.fail);
            }
            await turn();
          }
          writer.failNextWrites(0);
          const settled = queue.settle().then(
            () => null,
            (error: unknown) => error,
          );
          while (writer.pending() > 0 || (await Promise.race([settled, turn()])) === undefined) {
            writer.finishOne();
            await turn();
          }
          expect(await settled).toBeNull();
          expect(writer.maxConcurrent()).toBeLessThanOrEqual(1);
          // Each file's anchor only moves forward, and ends at the newest state marked for it.
          for (const file of lines.keys()) {
            const counts = writer.log.filter((w) => w.file === file).map((w) => w.lineCount);
            expect(counts).toEqual([...counts].sort((x, y) => x - y));
            expect(writer.written.get(file)).toBe(lines.get(file));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps a failed state for another try, and settle rejects when that try fails too', async () => {
    const writer = manualWriter();
    const queue = anchorQueue(writer.write);
    writer.failNextWrites(2);
    queue.mark('a', state(1));
    writer.finishOne();
    await turn();
    const settled = queue.settle();
    await turn();
    writer.finishOne();
    await expect(settled).rejects.toThrow(/disk full writing a/);
    expect(writer.written.has('a')).toBe(false);
    // The next mark (or settle) tries again, and this time the disk takes it.
    const again = queue.settle();
    await turn();
    writer.finishOne();
    await again;
    expect(writer.written.get('a')).toBe(1);
  });
});
