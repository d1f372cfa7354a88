import type { ExportLine } from '../export/line.js';
import { PAYLOAD_KEY } from '../export/parse.js';
import { sha256Hex } from '../hash/sha256.js';

const PAYLOAD_KEY_BYTES = Buffer.from(PAYLOAD_KEY, 'utf8');
const NEWLINE = 10;
const CR = 13;
const CLOSE_BRACE = 0x7d;

/**
 * Calls `onLine(start, end)` for each line of `buffer[from, to)`: a line ends at a newline byte,
 * dropped with a `\r` just before it. When `final`, bytes after the last newline are one more
 * line, kept as they are (no newline, so no `\r` is dropped).
 */
export function forEachLineIn(
  buffer: Buffer,
  from: number,
  to: number,
  final: boolean,
  onLine: (start: number, end: number) => void,
): void {
  let start = from;
  for (
    let nl = buffer.indexOf(NEWLINE, start);
    nl !== -1 && nl < to;
    nl = buffer.indexOf(NEWLINE, start)
  ) {
    onLine(start, nl > start && buffer[nl - 1] === CR ? nl - 1 : nl);
    start = nl + 1;
  }
  if (final && start < to) onLine(start, to);
}

/**
 * One export line read as bytes: its text, and the SHA-256 of its payload hashed straight from the
 * bytes (the same bytes as the text's payload slice; a byte slice hashes faster than a string).
 */
export function exportLineAt(buffer: Buffer, start: number, end: number): ExportLine {
  const text = buffer.toString('utf8', start, end);
  const at = buffer.indexOf(PAYLOAD_KEY_BYTES, start);
  if (at > start && at < end && buffer[end - 1] === CLOSE_BRACE) {
    return {
      text,
      payloadSha256: sha256Hex(buffer.subarray(at + PAYLOAD_KEY_BYTES.length, end - 1)),
    };
  }
  return { text };
}
