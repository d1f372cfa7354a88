import { open } from 'node:fs/promises';

export interface FileTail {
  /** The last complete line, or null for an empty file. */
  lastLine: string | null;
  /** Bytes up to and including the last newline; anything after it is a torn write to cut off. */
  completeLength: number;
  size: number;
}

/** Reads backwards from the end in chunks, so recovery costs one line, not the whole file. */
export async function readTail(path: string, chunkSize = 64 * 1024): Promise<FileTail> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    let end = size;
    let completeLength = -1;
    let carried = Buffer.alloc(0);
    while (end > 0) {
      const start = Math.max(0, end - chunkSize);
      const chunk = Buffer.alloc(end - start);
      await handle.read(chunk, 0, chunk.length, start);
      const buffer = Buffer.concat([chunk, carried]);
      const offset = start;
      if (completeLength < 0) {
        const lastNewline = buffer.lastIndexOf(0x0a);
        if (lastNewline >= 0) completeLength = offset + lastNewline + 1;
      }
      if (completeLength >= 0) {
        const relativeEnd = completeLength - 1 - offset;
        const previousNewline = buffer.lastIndexOf(0x0a, relativeEnd - 1);
        if (previousNewline >= 0 || start === 0) {
          const line = buffer.subarray(previousNewline + 1, relativeEnd).toString('utf8');
          return { lastLine: line, completeLength, size };
        }
      }
      carried = buffer;
      end = start;
    }
    return { lastLine: null, completeLength: Math.max(0, completeLength), size };
  } finally {
    await handle.close();
  }
}
