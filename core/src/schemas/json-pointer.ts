/** RFC 6901 JSON Pointers: the way rules name a place in a submission. */

/** A syntactically valid pointer: "" (the whole document) or "/"-prefixed tokens with only ~0 and ~1 escapes. */
export const JSON_POINTER = /^(\/([^~/]|~[01])*)*$/;

export type ResolvedPointer = { found: true; value: unknown } | { found: false };

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/** Splits a pointer into unescaped reference tokens; throws on bad syntax (rules are validated first). */
export function parsePointer(pointer: string): string[] {
  if (!JSON_POINTER.test(pointer))
    throw new Error(`not a JSON pointer: ${JSON.stringify(pointer)}`);
  if (pointer === '') return [];
  // ~1 before ~0, so "~01" becomes "~1" and not "/".
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** Escapes one reference token and appends it, for naming the place of a finding. */
export function appendToken(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/**
 * Resolves a pointer against parsed JSON. Only own properties count, so "/constructor" or
 * "/__proto__" never reach into the prototype chain; "-" and non-canonical indexes are absent.
 */
export function resolvePointer(document: unknown, pointer: string): ResolvedPointer {
  let current: unknown = document;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(current)) {
      if (!ARRAY_INDEX.test(token)) return { found: false };
      const index = Number(token);
      if (index >= current.length) return { found: false };
      current = current[index];
    } else if (current !== null && typeof current === 'object') {
      if (!Object.prototype.hasOwnProperty.call(current, token)) return { found: false };
      current = (current as Record<string, unknown>)[token];
    } else {
      return { found: false };
    }
  }
  return current === undefined ? { found: false } : { found: true, value: current };
}
