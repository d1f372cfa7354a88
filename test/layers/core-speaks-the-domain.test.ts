import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

/** How an engine sends statements is the adapters' business (docs/storage.md): core never says it. */
const ENGINE_WORDS = /round.?trip|commit|cork|pipelin/i;

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? sourceFiles(join(folder, e.name))
        : Promise.resolve(e.name.endsWith('.ts') ? [join(folder, e.name)] : []),
    ),
  );
  return nested.flat();
}

/** Each line of `text` that speaks of an engine's wire choreography, as `file:line: text`. */
function engineWords(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => (ENGINE_WORDS.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('core speaks the domain', () => {
  it('finds no word of round trips, COMMIT, corking or pipelining in core/src', async () => {
    const found: string[] = [];
    for (const file of await sourceFiles(join(root, 'core/src'))) {
      found.push(...engineWords(relative(root, file), await readFile(file, 'utf8')));
    }
    expect(found).toEqual([]);
  });

  it('would find such a word (the check can fail)', () => {
    expect(engineWords('planted.ts', 'ok\n// sent with its COMMIT, one round trip\n')).toEqual([
      'planted.ts:2: // sent with its COMMIT, one round trip',
    ]);
  });
});
