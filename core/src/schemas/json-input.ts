/**
 * What any request value may be, before a route's own schema looks at it (docs/http.md, "What a
 * request may contain"). Every string, object key included, is well-formed Unicode without NUL: a
 * lone surrogate cannot be stored or signed as sent, and PostgreSQL refuses NUL in text. Numbers are
 * finite, no member is named `__proto__`, and a value nests at most MAX_JSON_DEPTH levels. The walk is iterative, so a deep value
 * is refused without recursion.
 */

/** Arrays and objects a request value may nest; the scalar inside the deepest one is not a level. */
export const MAX_JSON_DEPTH = 64;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string breaks the text rule, or undefined when it keeps it. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode (a lone surrogate was sent)';
  return undefined;
}

export interface InputProblem {
  /** Dotted path from `where`, e.g. `body.input.a.0`. */
  field: string;
  problem: string;
}

interface Pending {
  value: unknown;
  path: string;
  depth: number;
}

function keyProblem(key: string, path: string): InputProblem | undefined {
  // JavaScript objects give this name a meaning of its own: a member so named would be dropped or
  // turn into a prototype on the way to storage, so the stored value would differ from the sent one.
  if (key === '__proto__') return { field: path, problem: 'a key must not be "__proto__"' };
  const problem = textProblem(key);
  // The key itself cannot be printed safely: the detail names its parent and says it is a key.
  return problem === undefined ? undefined : { field: path, problem: `a key ${problem}` };
}

function scalarProblem(value: unknown): string | undefined {
  if (typeof value === 'string') return textProblem(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return 'number is out of range';
  return undefined;
}

/** The first place where `value` breaks the input rules, or undefined when it keeps them all. */
export function inputProblem(value: unknown, where: string): InputProblem | undefined {
  const stack: Pending[] = [{ value, path: where, depth: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value: item, path, depth } = next;
    if (typeof item !== 'object' || item === null) {
      const problem = scalarProblem(item);
      if (problem !== undefined) return { field: path, problem };
      continue;
    }
    if (depth >= MAX_JSON_DEPTH) {
      return { field: path, problem: `nests deeper than ${MAX_JSON_DEPTH} levels` };
    }
    for (const key of Object.keys(item)) {
      const bad = keyProblem(key, path);
      if (bad) return bad;
      const child = (item as Record<string, unknown>)[key];
      stack.push({ value: child, path: `${path}.${key}`, depth: depth + 1 });
    }
  }
  return undefined;
}
