import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countingLines } from './commands/export.js';
import { progressBar, progressLine, type ProgressOptions } from './progress.js';

const receipts: ProgressOptions = {
  label: 'exporting',
  unit: { kind: 'items', name: 'receipts' },
  total: 1000,
};

describe('the progress bar', () => {
  it('shows the total, the percentage and the rate', () => {
    expect(progressLine(receipts, 420, 2)).toBe(
      'exporting [##########--------------] 42% 420/1000 receipts, 210/s',
    );
    expect(
      progressLine({ ...receipts, unit: { kind: 'bytes' }, total: 4 * 1048576 }, 1048576, 2),
    ).toBe('exporting [######------------------] 25% 1.0/4.0 MB, 0.5 MB/s');
    // An empty export is complete, not a division by zero.
    expect(progressLine({ ...receipts, total: 0 }, 0, 0)).toContain('100% 0/0 receipts, 0/s');
  });

  it('writes nothing to a stream that is not a terminal, and redraws in place on one', () => {
    const written: string[] = [];
    const pipe = { write: (text: string) => written.push(text) };
    const quiet = progressBar({ ...receipts, stream: pipe });
    quiet.update(10);
    quiet.finish();
    expect(written).toEqual([]);

    let clock = 0;
    const bar = progressBar({ ...receipts, stream: { ...pipe, isTTY: true }, now: () => clock });
    bar.update(1);
    clock = 50;
    bar.update(2); // within 100 ms of the last drawing: skipped
    clock = 1000;
    bar.update(500);
    bar.finish();
    expect(written.filter((w) => w.startsWith('\r'))).toHaveLength(3);
    expect(written.at(-2)).toContain('50% 500/1000 receipts, 500/s');
    expect(written.at(-1)).toBe('\n');
  });
});

describe('counting the lines of an export', () => {
  it('passes the bytes through unchanged and counts receipt lines against the header count, however chunked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 10 }),
        async (payloads, cuts) => {
          const lines = payloads.map((p) => JSON.stringify({ p }));
          const text = [JSON.stringify({ format: 'x', count: lines.length }), ...lines]
            .map((line) => `${line}\n`)
            .join('');
          const bytes = Buffer.from(text);
          const chunks: Buffer[] = [];
          for (let at = 0, i = 0; at < bytes.length; i += 1) {
            const size = cuts[i % cuts.length] as number;
            chunks.push(bytes.subarray(at, at + size));
            at += size;
          }
          const seen: number[] = [];
          let total = -1;
          const out: Buffer[] = [];
          await pipeline(
            Readable.from(chunks),
            countingLines((t) => {
              total = t;
              return { update: (done) => seen.push(done), finish: () => seen.push(-1) };
            }),
            new Writable({
              write(chunk: Buffer, _e, done) {
                out.push(chunk);
                done();
              },
            }),
          );
          expect(Buffer.concat(out).equals(bytes)).toBe(true);
          expect(total).toBe(lines.length);
          expect(seen.at(-1)).toBe(-1);
          expect(seen.filter((n) => n >= 0).at(-1) ?? 0).toBe(lines.length);
        },
      ),
      { numRuns: 100 },
    );
  });
});
