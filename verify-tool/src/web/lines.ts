/**
 * The lines of a byte stream (a `File.stream()` in the page), as bytes, without their newlines and
 * with a trailing `\r` dropped: split on newline bytes the way the Node reader splits an export.
 * Each batch holds the lines completed by one chunk, as views into it, valid until the next batch
 * is asked for. Only the current chunk and the unfinished line are held, so a 100 MB export never
 * becomes one string. `onBytes` is told how many bytes have been read so far, after each chunk.
 */
export interface LineBatch {
  /** Each line's bytes, views valid until the next batch is asked for. */
  bytes: Uint8Array[];
  /** The same lines decoded (UTF-8, malformed bytes replaced, as the Node reader does). */
  texts: string[];
}

export async function* streamLineBatches(
  stream: ReadableStream<Uint8Array>,
  onBytes?: (bytesRead: number) => void | Promise<void>,
): AsyncGenerator<LineBatch> {
  const decoder = new TextDecoder();
  const line = (bytes: Uint8Array, start: number, end: number) =>
    bytes.subarray(start, end > start && bytes[end - 1] === 13 ? end - 1 : end);
  const reader = stream.getReader();
  let carry: Uint8Array = new Uint8Array(0);
  let bytesRead = 0;
  try {
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) break;
      bytesRead += chunk.length;
      const batch: LineBatch = { bytes: [], texts: [] };
      let start = 0;
      let nl = chunk.indexOf(10);
      if (carry.length > 0 && nl !== -1) {
        // The unfinished line from the previous chunk ends here.
        const joined = line(concat(carry, chunk.subarray(0, nl)), 0, carry.length + nl);
        batch.bytes.push(joined);
        batch.texts.push(decoder.decode(joined));
        carry = new Uint8Array(0);
        start = nl + 1;
        nl = chunk.indexOf(10, start);
      }
      const first = start;
      for (; nl !== -1; nl = chunk.indexOf(10, start)) {
        batch.bytes.push(line(chunk, start, nl));
        start = nl + 1;
      }
      if (start > first) {
        // One decode for all the chunk's whole lines: a newline byte always ends a malformed
        // sequence, so this is the same text as decoding them one by one.
        const texts = decoder.decode(chunk.subarray(first, start - 1)).split('\n');
        for (const text of texts) batch.texts.push(text.endsWith('\r') ? text.slice(0, -1) : text);
      }
      if (start < chunk.length) carry = concat(carry, chunk.subarray(start));
      if (batch.bytes.length > 0) yield batch;
      await onBytes?.(bytesRead);
    }
    if (carry.length > 0) {
      const last = line(carry, 0, carry.length);
      yield { bytes: [last], texts: [decoder.decode(last)] };
    }
  } finally {
    reader.releaseLock();
  }
}

/** The lines alone, decoded. */
export async function* streamLines(
  stream: ReadableStream<Uint8Array>,
  onBytes?: (bytesRead: number) => void | Promise<void>,
): AsyncGenerator<string> {
  for await (const batch of streamLineBatches(stream, onBytes)) yield* batch.texts;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b.slice();
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}
