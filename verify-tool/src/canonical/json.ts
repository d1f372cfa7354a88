import { VerifyError } from '../errors.js';

/** A value that RFC 8785 can canonicalize: plain JSON data, nothing else. */
export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Keys and indexes from the root to the value being written; read only to name where it failed. */
type Path = (string | number)[];

const where = (path: Path) => path.map((step) => `/${step}`).join('');

/** A string as RFC 8785 writes it (JSON.stringify's escaping); a lone surrogate has no UTF-8 form. */
function string(s: string, path: Path, key: boolean): string {
  if (SURROGATE.test(s) && LONE_SURROGATE.test(s)) {
    throw new VerifyError(
      'lone_surrogate',
      `lone surrogate in string at ${where(path)}${key ? ' (key)' : ''}`,
    );
  }
  return JSON.stringify(s);
}

/**
 * Writes the value in one pass (the path for keys JSON.stringify would reorder, see sortedCopy), refusing what RFC 8785 cannot represent instead of letting
 * JSON.stringify silently turn it into something else (NaN into null, a Date into a string,
 * undefined into nothing). Numbers are ECMAScript's shortest round-trip form (JSON.stringify's, as
 * RFC 8785 section 3.2.2.3 specifies); object keys sort by UTF-16 code units (Array#sort's order).
 */
function write(value: unknown, path: Path, seen: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return string(value, path, false);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) {
        throw new VerifyError('non_finite_number', `non-finite number at ${where(path)}`);
      }
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (seen.has(value)) throw new VerifyError('cyclic_value', `cycle at ${where(path)}`);
      seen.add(value);
      let out: string;
      if (Array.isArray(value)) {
        out = '[';
        for (let i = 0; i < value.length; i += 1) {
          path.push(i);
          out += (i === 0 ? '' : ',') + write(value[i], path, seen);
          path.pop();
        }
        out += ']';
      } else {
        const proto = Object.getPrototypeOf(value) as unknown;
        if (proto !== Object.prototype && proto !== null) {
          throw new VerifyError('unsupported_value', `non-plain object at ${where(path)}`);
        }
        const record = value as Record<string, unknown>;
        const keys = Object.keys(record).sort();
        out = '{';
        for (let i = 0; i < keys.length; i += 1) {
          const key = keys[i]!;
          path.push(key);
          out += `${i === 0 ? '' : ','}${string(key, path, true)}:${write(record[key], path, seen)}`;
          path.pop();
        }
        out += '}';
      }
      seen.delete(value);
      return out;
    }
    default:
      throw new VerifyError('unsupported_value', `unsupported ${typeof value} at ${where(path)}`);
  }
}

/** Thrown by `sortedCopy` when JSON.stringify would not keep a key in sorted order. */
class NotInKeyOrder extends Error {}

/**
 * A copy of the value with every object's keys inserted in sorted order, checked as `write` checks,
 * so that JSON.stringify (native, about twice as fast as `write`) prints it canonically. JavaScript
 * objects list integer-like keys first whatever their insertion order, and `__proto__` is not an
 * ordinary key: a key that starts with a digit, or `__proto__`, leaves this path for `write`.
 */
function sortedCopy(value: unknown, path: Path, seen: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
      if (SURROGATE.test(value) && LONE_SURROGATE.test(value)) string(value, path, false);
      return value;
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) {
        throw new VerifyError('non_finite_number', `non-finite number at ${where(path)}`);
      }
      return value;
    case 'object': {
      if (value === null) return null;
      if (seen.has(value)) throw new VerifyError('cyclic_value', `cycle at ${where(path)}`);
      seen.add(value);
      let copy: unknown;
      if (Array.isArray(value)) {
        const items: unknown[] = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i += 1) {
          path.push(i);
          items[i] = sortedCopy(value[i], path, seen);
          path.pop();
        }
        copy = items;
      } else {
        const proto = Object.getPrototypeOf(value) as unknown;
        if (proto !== Object.prototype && proto !== null) {
          throw new VerifyError('unsupported_value', `non-plain object at ${where(path)}`);
        }
        const record = value as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(record).sort()) {
          const first = key.charCodeAt(0);
          if ((first >= 0x30 && first <= 0x39) || key === '__proto__') throw new NotInKeyOrder();
          path.push(key);
          if (SURROGATE.test(key) && LONE_SURROGATE.test(key)) string(key, path, true);
          out[key] = sortedCopy(record[key], path, seen);
          path.pop();
        }
        copy = out;
      }
      seen.delete(value);
      return copy;
    }
    default:
      throw new VerifyError('unsupported_value', `unsupported ${typeof value} at ${where(path)}`);
  }
}

/** Past this depth `printsCanonically` leaves the value to the checked paths (which find cycles). */
const FAST_DEPTH = 64;

/**
 * Whether JSON.stringify already prints the value canonically, with nothing to copy: every object
 * plain, its keys enumerated in strictly increasing UTF-16 order (JSON.stringify writes them in that
 * same order, integer-like keys included), every string and key free of lone surrogates, every
 * number finite, and nothing else (no undefined, hole, function, bigint, Date or array `toJSON`).
 * Text parsed from canonical JSON, and payloads built in key order, always are; anything else answers
 * false at its first out-of-order key and takes the paths above, which also name what is wrong.
 */
function printsCanonically(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
      return !SURROGATE.test(value) || !LONE_SURROGATE.test(value);
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (depth >= FAST_DEPTH) return false;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype || 'toJSON' in value) return false;
        for (let i = 0; i < value.length; i += 1) {
          if (!printsCanonically(value[i], depth + 1)) return false;
        }
        return true;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      const record = value as Record<string, unknown>;
      let previous: string | null = null;
      for (const key of Object.keys(record)) {
        if (previous !== null && !(previous < key)) return false;
        if (SURROGATE.test(key) && LONE_SURROGATE.test(key)) return false;
        if (!printsCanonically(record[key], depth + 1)) return false;
        previous = key;
      }
      return true;
    }
    default:
      return false;
  }
}

/** RFC 8785 (JCS) canonical JSON text of a plain JSON value. */
export function canonicalJson(value: unknown): string {
  if (printsCanonically(value, 0)) return JSON.stringify(value);
  let copy: unknown;
  try {
    copy = sortedCopy(value, [], new Set());
  } catch (error) {
    if (!(error instanceof NotInKeyOrder)) throw error;
    return write(value, [], new Set());
  }
  return JSON.stringify(copy);
}
