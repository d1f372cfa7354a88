import type { AllowValuesCheck, DenyTermsCheck } from '../../schemas/flight-sheet.js';
import { type Finding, flag, listShort, pass, show, skip } from '../finding.js';
import { appendToken, resolvePointer } from '../../schemas/json-pointer.js';

/**
 * Every string value under `value`, with its pointer. Iterative, so deeply nested input cannot
 * overflow the stack; object keys are names, not content, and are not scanned.
 */
function strings(value: unknown, pointer: string): [string, string][] {
  const found: [string, string][] = [];
  const stack: [string, unknown][] = [[pointer, value]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [at, item] = next;
    if (typeof item === 'string') found.push([at, item]);
    else if (Array.isArray(item)) item.forEach((v, i) => stack.push([appendToken(at, i), v]));
    else if (item !== null && typeof item === 'object') {
      for (const [key, v] of Object.entries(item)) stack.push([appendToken(at, key), v]);
    }
  }
  // The stack visits in reverse; document order makes the first hits in a detail the first ones.
  return found.reverse();
}

export function checkDenyTerms(
  check: DenyTermsCheck,
  submission: unknown,
  optional: boolean,
): Finding {
  const roots: [string, unknown][] = [];
  for (const path of check.paths ?? ['']) {
    const resolved = resolvePointer(submission, path);
    if (resolved.found) roots.push([path, resolved.value]);
  }
  if (optional && check.paths && roots.length === 0) {
    return skip(`Optional: none of ${listShort(check.paths)} is present.`);
  }
  const terms = check.terms.map((term) => [term, term.toLowerCase()] as const);
  const hits: string[] = [];
  for (const [root, value] of roots) {
    for (const [pointer, text] of strings(value, root)) {
      const lower = text.toLowerCase();
      for (const [term, needle] of terms) {
        if (lower.includes(needle)) hits.push(`${show(term)} at ${pointer || '/'}`);
      }
    }
  }
  if (hits.length === 0) {
    const scope = check.paths ? ` under ${listShort(check.paths)}` : '';
    return pass(`None of the ${check.terms.length} denied terms appears${scope}.`);
  }
  return flag(`Denied terms found: ${listShort(hits)}.`);
}

export function checkAllowValues(
  check: AllowValuesCheck,
  submission: unknown,
  optional: boolean,
): Finding {
  const resolved = resolvePointer(submission, check.path);
  if (!resolved.found) {
    return optional
      ? skip(`Optional: ${check.path} is absent.`)
      : flag(`${check.path} is missing.`);
  }
  const allowed = new Set<unknown>(check.values);
  const allowedText = listShort(check.values.map(show), 5);
  // A list is allowed when each of its elements is.
  const values = Array.isArray(resolved.value) ? resolved.value : [resolved.value];
  const outside = values.filter((v) => !allowed.has(v));
  if (outside.length === 0) {
    return pass(`${check.path} is ${show(resolved.value)}, within the allowed values.`);
  }
  return flag(`${check.path} has ${listShort(outside.map(show))}, not one of ${allowedText}.`);
}
