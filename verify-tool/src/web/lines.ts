/**
 * Lines of a byte stream (a `File.stream()` in the page), without their newlines and with a trailing
 * `\r` dropped, the way the Node reader splits an export: on newline bytes, each line decoded on its
 * own. Only the current chunk and the unfinished line are held, so a 100 MB export never becomes one
 * string. `onBytes` is told how many bytes have been read so far, after each chunk.
 */
export async function* streamLines(
  stream: ReadableStream<Uint8Array>,
  onBytes?: (bytesRead: number) => void | Promise<void>,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const decode = (bytes: Uint8Array, start: number, end: number) =>
    decoder.decode(bytes.subarray(start, end > start && bytes[end - 1] === 13 ? end - 1 : end));
  const reader = stream.getReader();
  let carry: Uint8Array = new Uint8Array(0);
  let bytesRead = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytesRead += value.length;
      let chunk = value;
      let start = 0;
      let nl = chunk.indexOf(10);
      if (carry.length > 0 && nl !== -1) {
        // The unfinished line from the previous chunk ends here.
        chunk = concat(carry, chunk.subarray(0, nl + 1));
        yield decode(chunk, 0, chunk.length - 1);
        carry = new Uint8Array(0);
        chunk = value;
        start = nl + 1;
        nl = chunk.indexOf(10, start);
      }
      for (; nl !== -1; nl = chunk.indexOf(10, start)) {
        yield decode(chunk, start, nl);
        start = nl + 1;
      }
      if (start < chunk.length) carry = concat(carry, chunk.subarray(start));
      await onBytes?.(bytesRead);
    }
    if (carry.length > 0) yield decode(carry, 0, carry.length);
  } finally {
    reader.releaseLock();
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b.slice();
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}
