import { open } from 'node:fs/promises';

/**
 * The last `count` complete lines of a file, oldest first, reading backwards in chunks so the cost
 * follows `count`, not the file size. A missing file has no lines; a torn final line is not complete.
 */
export async function readLastLines(
  path: string,
  count: number,
  chunkSize = 64 * 1024,
): Promise<string[]> {
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (handle === null || count <= 0) {
    await handle?.close();
    return [];
  }
  try {
    const { size } = await handle.stat();
    let end = size;
    let text = Buffer.alloc(0);
    for (;;) {
      const newlines = text.reduce((n, byte) => (byte === 0x0a ? n + 1 : n), 0);
      if (end === 0 || newlines > count) break;
      const start = Math.max(0, end - chunkSize);
      const chunk = Buffer.alloc(end - start);
      await handle.read(chunk, 0, chunk.length, start);
      text = Buffer.concat([chunk, text]);
      end = start;
    }
    const complete = text.subarray(0, text.lastIndexOf(0x0a) + 1).toString('utf8');
    const lines = complete.split('\n').slice(0, -1);
    // When reading stopped mid-file, the first piece may be the end of an earlier line.
    if (end > 0) lines.shift();
    return lines.slice(-count);
  } finally {
    await handle.close();
  }
}
