import { Decimal } from 'decimal.js';
import type { CompareOp } from '../../schemas/enums.js';
import type { CompareCheck, SumCheck } from '../../schemas/flight-sheet.js';
import { toDecimal } from '../decimal.js';
import { type Finding, flag, pass, show, skip } from '../finding.js';
import { appendToken, resolvePointer } from '../../schemas/json-pointer.js';

type Numeric = { ok: true; value: Decimal } | { ok: false; finding: Finding };

/** Reads a number at a pointer, or says in a sentence why it cannot. */
function numberAt(submission: unknown, pointer: string, optional: boolean): Numeric {
  const resolved = resolvePointer(submission, pointer);
  if (!resolved.found) {
    return {
      ok: false,
      finding: optional ? skip(`Optional: ${pointer} is absent.`) : flag(`${pointer} is missing.`),
    };
  }
  const value = toDecimal(resolved.value);
  if (value === null) {
    return { ok: false, finding: flag(`${pointer} is ${show(resolved.value)}, not a number.`) };
  }
  return { ok: true, value };
}

export function checkSum(check: SumCheck, submission: unknown, optional: boolean): Finding {
  const items = resolvePointer(submission, check.items);
  if (!items.found) {
    return optional
      ? skip(`Optional: ${check.items} is absent.`)
      : flag(`${check.items} is missing.`);
  }
  if (!Array.isArray(items.value)) return flag(`${check.items} is not a list.`);
  const expected = numberAt(submission, check.equals, optional);
  if (!expected.ok) return expected.finding;

  let total = new Decimal(0);
  for (const [index, item] of items.value.entries()) {
    const place = appendToken(appendToken(check.items, index), check.field);
    const entry = resolvePointer(item, appendToken('', check.field));
    if (!entry.found) return flag(`${place} is missing.`);
    const value = toDecimal(entry.value);
    if (value === null) return flag(`${place} is ${show(entry.value)}, not a number.`);
    total = total.plus(value);
  }
  const tolerance = toDecimal(check.tolerance ?? 0) ?? new Decimal(0);
  const within = total.minus(expected.value).abs().lte(tolerance);
  const what = `The sum of ${check.field} over ${items.value.length} items is ${total.toString()}`;
  if (within) return pass(`${what}, matching ${check.equals} (${expected.value.toString()}).`);
  const slack = tolerance.isZero() ? '' : ` (tolerance ${tolerance.toString()})`;
  return flag(`${what} but ${check.equals} is ${expected.value.toString()}${slack}.`);
}

const PHRASE: Record<CompareOp, string> = {
  eq: 'equal to',
  ne: 'different from',
  lt: 'less than',
  lte: 'at most',
  gt: 'greater than',
  gte: 'at least',
};

function holds(left: Decimal, cmp: CompareOp, right: Decimal): boolean {
  switch (cmp) {
    case 'eq':
      return left.eq(right);
    case 'ne':
      return !left.eq(right);
    case 'lt':
      return left.lt(right);
    case 'lte':
      return left.lte(right);
    case 'gt':
      return left.gt(right);
    case 'gte':
      return left.gte(right);
  }
}

export function checkCompare(check: CompareCheck, submission: unknown, optional: boolean): Finding {
  const read = (operand: string | number): Numeric =>
    typeof operand === 'number'
      ? { ok: true, value: new Decimal(operand) }
      : numberAt(submission, operand, optional);
  const left = read(check.left);
  if (!left.ok) return left.finding;
  const right = read(check.right);
  if (!right.ok) return right.finding;

  const name = (operand: string | number, value: Decimal) =>
    typeof operand === 'number' ? value.toString() : `${operand} (${value.toString()})`;
  const leftName = typeof check.left === 'number' ? String(check.left) : check.left;
  const expectation = `${PHRASE[check.cmp]} ${name(check.right, right.value)}`;
  if (holds(left.value, check.cmp, right.value)) {
    return pass(`${leftName} is ${left.value.toString()}, ${expectation}.`);
  }
  return flag(`${leftName} is ${left.value.toString()}; expected ${expectation}.`);
}
