import type { RequiredCheck } from '../../schemas/flight-sheet.js';
import { type Finding, flag, listShort, pass, skip } from '../finding.js';
import { resolvePointer } from '../../schemas/json-pointer.js';

/** Empty means no content: "", a whitespace-only string, [] or {}. */
function isEmpty(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

export function checkRequired(
  check: RequiredCheck,
  submission: unknown,
  optional: boolean,
): Finding {
  const missing: string[] = [];
  const blank: string[] = [];
  for (const path of check.paths) {
    const resolved = resolvePointer(submission, path);
    if (!resolved.found) missing.push(path);
    else if (resolved.value === null || isEmpty(resolved.value)) blank.push(path);
  }
  if (optional && missing.length === check.paths.length) {
    return skip(`Optional: none of ${listShort(check.paths)} is present.`);
  }
  if (missing.length === 0 && blank.length === 0) {
    return pass(
      check.paths.length === 1
        ? `${check.paths[0]} is present.`
        : `All ${check.paths.length} required fields are present.`,
    );
  }
  const parts = [];
  if (missing.length > 0) parts.push(`missing ${listShort(missing)}`);
  if (blank.length > 0) parts.push(`null or empty ${listShort(blank)}`);
  return flag(`Required fields not filled: ${parts.join('; ')}.`);
}
