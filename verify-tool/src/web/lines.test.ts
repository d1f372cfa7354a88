import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { streamLineBatches, streamLines } from './lines.js';

/** A byte stream that hands out `bytes` cut at the given offsets. */
function chunked(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    if (cut > from) pieces.push(bytes.slice(from, cut));
    from = Math.max(from, cut);
  }
  return new ReadableStream({
    pull(controller) {
      const next = pieces.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>, seen?: number[]): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of streamLines(stream, (n) => void seen?.push(n))) lines.push(line);
  return lines;
}

describe('streamLines', () => {
  it('yields the same lines however the bytes are cut into chunks (multi-byte characters included)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 30 }), { maxLength: 12 }),
        fc.array(fc.nat(400), { maxLength: 20 }),
        fc.boolean(),
        async (texts, cuts, crlf) => {
          const lines = texts.map((t) => t.replaceAll(/[\r\n]/g, ''));
          const text = lines.join(crlf ? '\r\n' : '\n');
          const bytes = new TextEncoder().encode(text);
          // As the Node reader: a newline ends a line, so a final newline adds no empty line.
          const expected = text.split(crlf ? '\r\n' : '\n');
          if (expected.at(-1) === '') expected.pop();
          expect(await collect(chunked(bytes, cuts))).toEqual(expected);
        },
      ),
    );
  });

  it('decodes each chunk once into the same text as decoding line by line, malformed bytes included', async () => {
    const decoder = new TextDecoder();
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }).map((b) => b.map((x) => [10, 13, 0xe2, 0x82, x][x % 5]!)),
        fc.array(fc.nat(300), { maxLength: 10 }),
        async (bytes, cuts) => {
          for await (const batch of streamLineBatches(chunked(bytes, cuts))) {
            expect(batch.texts).toEqual(batch.bytes.map((line) => decoder.decode(line)));
          }
        },
      ),
    );
  });

  it('keeps a last line without a newline, and an empty line between two newlines', async () => {
    const bytes = new TextEncoder().encode('a\n\nb');
    expect(await collect(chunked(bytes, [1, 2]))).toEqual(['a', '', 'b']);
  });

  it('reports the bytes read after each chunk', async () => {
    const seen: number[] = [];
    await collect(chunked(new TextEncoder().encode('abc\ndef\n'), [3, 5]), seen);
    expect(seen).toEqual([3, 5, 8]);
  });
});
