import { invalidInput } from '../errors.js';

/**
 * JSON Schema `pattern`s are regular expressions run by V8's backtracking engine, and an owner (anyone
 * who signs up) writes them. A pattern like `^(a+)+$` takes exponential time on a crafted string and
 * would stall the single storage queue. Custom schemas therefore keep to patterns whose worst case is
 * small: no nested or alternated unbounded repetition, at most MAX_UNBOUNDED unbounded quantifiers,
 * no backreferences or lookaround, and patterns only ever see strings of at most
 * MAX_PATTERN_SUBJECT characters (longer strings fail the pattern).
 */
export const MAX_PATTERN_LENGTH = 256;
export const MAX_UNBOUNDED = 2;
export const MAX_PATTERN_SUBJECT = 10_000;
/** A bounded repeat above this count backtracks like an unbounded one. */
const LARGE_REPEAT = 100;

interface Group {
  unbounded: boolean;
  alternation: boolean;
}

/** Reads a quantifier at `i`; returns its length and whether it is unbounded, or null when none. */
function quantifierAt(p: string, i: number): { length: number; unbounded: boolean } | null {
  const c = p[i];
  let length: number;
  let unbounded = false;
  if (c === '*' || c === '+') {
    length = 1;
    unbounded = true;
  } else if (c === '?') {
    length = 1;
  } else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
    if (!m) return null;
    length = m[0].length;
    const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
    unbounded = max > LARGE_REPEAT;
  } else {
    return null;
  }
  if (p[i + length] === '?') length += 1; // lazy
  return { length, unbounded };
}

/** Why a pattern is refused, or null when it is safe to run. */
export function unsafePatternReason(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `longer than ${MAX_PATTERN_LENGTH} characters`;
  const stack: Group[] = [{ unbounded: false, alternation: false }];
  let unboundedCount = 0;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    let atomEnd = i + 1;
    let closed: Group | null = null;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9k]/.test(next)) return 'backreferences are not allowed';
      atomEnd = i + 2;
    } else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j += 1;
      if (pattern[j] === ']') j += 1;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      atomEnd = j + 1;
    } else if (c === '(') {
      if (/^\(\?<?[=!]/.test(pattern.slice(i))) return 'lookaround is not allowed';
      stack.push({ unbounded: false, alternation: false });
      const named = /^\(\?(<[A-Za-z_][A-Za-z0-9_]*>|:)/.exec(pattern.slice(i));
      i += named ? named[0].length : 1;
      continue;
    } else if (c === ')') {
      if (stack.length < 2) return 'unbalanced parentheses';
      closed = stack.pop()!;
    } else if (c === '|') {
      stack[stack.length - 1]!.alternation = true;
      i += 1;
      continue;
    }
    const q = quantifierAt(pattern, atomEnd);
    const top = stack[stack.length - 1]!;
    if (q?.unbounded) {
      unboundedCount += 1;
      if (closed && (closed.unbounded || closed.alternation)) {
        return 'a repeated group may not itself contain repetition or alternation';
      }
      top.unbounded = true;
    }
    if (closed?.unbounded) top.unbounded = true;
    i = atomEnd + (q?.length ?? 0);
  }
  if (stack.length !== 1) return 'unbalanced parentheses';
  if (unboundedCount > MAX_UNBOUNDED) {
    return `more than ${MAX_UNBOUNDED} unbounded repetitions`;
  }
  return null;
}

/** Walks a JSON Schema and refuses the first unsafe `pattern` or `patternProperties` key. */
export function assertSafePatterns(schema: unknown, path = ''): void {
  if (Array.isArray(schema)) {
    schema.forEach((item, index) => assertSafePatterns(item, `${path}/${index}`));
    return;
  }
  if (schema === null || typeof schema !== 'object') return;
  for (const [key, value] of Object.entries(schema)) {
    const at = `${path}/${key}`;
    if (key === 'pattern' && typeof value === 'string') {
      const reason = unsafePatternReason(value);
      if (reason) throw invalidInput(`required_output_schema${at}: unsafe pattern (${reason})`);
    }
    if (key === 'patternProperties' && value !== null && typeof value === 'object') {
      for (const name of Object.keys(value)) {
        const reason = unsafePatternReason(name);
        if (reason) throw invalidInput(`required_output_schema${at}: unsafe pattern (${reason})`);
      }
    }
    assertSafePatterns(value, at);
  }
}

/** The RegExp engine ajv uses: a subject longer than MAX_PATTERN_SUBJECT never matches. */
export function boundedRegExp(pattern: string, flags: string) {
  const regExp = new RegExp(pattern, flags);
  return {
    test: (subject: string) => subject.length <= MAX_PATTERN_SUBJECT && regExp.test(subject),
    toString: () => regExp.toString(),
  };
}
boundedRegExp.code = 'boundedRegExp';
