import canonicalize from 'canonicalize';
import { VerifyError } from '../errors.js';

/** A value that RFC 8785 can canonicalize: plain JSON data, nothing else. */
export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkString(s: string, path: string): void {
  if (LONE_SURROGATE.test(s)) {
    throw new VerifyError('lone_surrogate', `lone surrogate in string at ${path}`);
  }
}

/**
 * Walks the value once and rejects what RFC 8785 cannot represent, instead of letting
 * JSON.stringify silently turn it into something else (NaN into null, a Date into a string).
 */
function assertCanonicalizable(value: unknown, path: string, seen: Set<object>): void {
  switch (typeof value) {
    case 'string':
      checkString(value, path);
      return;
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(value)) {
        throw new VerifyError('non_finite_number', `non-finite number at ${path}`);
      }
      return;
    case 'object': {
      if (value === null) return;
      if (seen.has(value)) throw new VerifyError('cyclic_value', `cycle at ${path}`);
      seen.add(value);
      if (Array.isArray(value)) {
        value.forEach((item, i) => assertCanonicalizable(item, `${path}/${i}`, seen));
      } else {
        const proto = Object.getPrototypeOf(value) as unknown;
        if (proto !== Object.prototype && proto !== null) {
          throw new VerifyError('unsupported_value', `non-plain object at ${path}`);
        }
        for (const [key, item] of Object.entries(value)) {
          checkString(key, `${path} (key)`);
          assertCanonicalizable(item, `${path}/${key}`, seen);
        }
      }
      seen.delete(value);
      return;
    }
    default:
      throw new VerifyError('unsupported_value', `unsupported ${typeof value} at ${path}`);
  }
}

/** RFC 8785 (JCS) canonical JSON text of a plain JSON value. */
export function canonicalJson(value: unknown): string {
  assertCanonicalizable(value, '', new Set());
  const text = canonicalize(value);
  if (text === undefined) throw new VerifyError('unsupported_value', 'value has no JSON form');
  return text;
}
