import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLastLines } from './recent.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'runledger-recent-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readLastLines', () => {
  it('returns the last complete lines, oldest first, whatever the chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ unit: 'grapheme-ascii', maxLength: 20 }).map((s) => s.replace(/\n/g, '')),
          {
            maxLength: 30,
          },
        ),
        fc.string({ maxLength: 5 }).map((s) => s.replace(/\n/g, '')),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 64 }),
        async (lines, torn, count, chunk) => {
          const path = join(dir, 'f.jsonl');
          await writeFile(path, lines.map((l) => `${l}\n`).join('') + torn);
          const expected = count === 0 ? [] : lines.slice(-count);
          expect(await readLastLines(path, count, chunk)).toEqual(expected);
        },
      ),
    );
  });

  it('reads a missing file as no lines', async () => {
    expect(await readLastLines(join(dir, 'missing.jsonl'), 5)).toEqual([]);
  });
});
