import { isUtf8 } from 'node:buffer';
import { MAX_JSON_DEPTH } from '@runledger/core/schemas';

/**
 * A JSON body's bytes, checked before they are parsed (docs/http.md, "What a request may contain"):
 * UTF-8 and nothing else, no object with a member name twice, and no nesting deeper than
 * MAX_JSON_DEPTH. One pass over the bytes with an explicit stack, so a body nested 10,000 levels
 * deep never reaches the (recursive) parser. Text that is not JSON at all is left to the parser.
 */

/** A body refused before parsing; `type` and `status` are what the error handler reads. */
export class JsonBytesError extends Error {
  readonly type: string = 'entity.json.refused';
  readonly status: number = 400;
}

class CharsetError extends JsonBytesError {
  override readonly type = 'charset.unsupported';
  override readonly status = 415;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** Index of the quote that closes the string opening at `start`, or -1 when it does not close. */
function stringEnd(bytes: Buffer, start: number): number {
  for (let quote = bytes.indexOf(QUOTE, start + 1); quote >= 0;) {
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    quote = bytes.indexOf(QUOTE, quote + 1);
  }
  return -1;
}

/** Open containers: a Set of member names for an object, null for an array. */
type Frame = Set<string> | null;

function memberName(bytes: Buffer, start: number, end: number): string | undefined {
  let escaped = false;
  for (let i = start + 1; i < end && !escaped; i += 1) escaped = bytes[i] === BACKSLASH;
  if (!escaped) return bytes.toString('utf8', start + 1, end);
  try {
    return JSON.parse(bytes.toString('utf8', start, end + 1)) as string;
  } catch {
    return undefined; // a malformed escape: the parser says so
  }
}

/** A member name as a detail shows it: JSON-quoted, and cut when long. */
const shown = (name: string) => JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);

/**
 * The JSON parser's `verify` hook, after decompression and before decoding: a charset other than
 * UTF-8 is 415 (JSON between systems is UTF-8, RFC 8259 §8.1), and the bytes must keep the rules.
 */
export function checkJsonBody(bytes: Buffer, charset: string | null): void {
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
    throw new CharsetError('unsupported charset: send JSON as UTF-8');
  }
  checkJsonBytes(bytes);
}

/** Throws a JsonBytesError when the bytes break a rule above. */
export function checkJsonBytes(bytes: Buffer): void {
  if (!isUtf8(bytes)) throw new JsonBytesError('request body is not valid UTF-8');
  const stack: Frame[] = [];
  let expectName = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      const end = stringEnd(bytes, i);
      if (end < 0) return;
      const top = stack[stack.length - 1];
      if (expectName && top) {
        const name = memberName(bytes, i, end);
        if (name === undefined) return;
        if (top.has(name))
          throw new JsonBytesError(
            `request body repeats a member name in one object: ${shown(name)}`,
          );
        top.add(name);
      }
      expectName = false;
      i = end;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (stack.length >= MAX_JSON_DEPTH) {
        throw new JsonBytesError(`request body nests deeper than ${MAX_JSON_DEPTH} levels`);
      }
      stack.push(byte === OPEN_OBJECT ? new Set() : null);
      expectName = byte === OPEN_OBJECT;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      stack.pop();
      expectName = false;
    } else if (byte === COMMA) {
      expectName = stack[stack.length - 1] instanceof Set;
    }
  }
}
