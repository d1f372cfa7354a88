import { Decimal } from 'decimal.js';

/** A plain decimal literal; decimal.js would also read hex, binary and Infinity, which a total never is. */
const DECIMAL_TEXT = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]{1,4})?$/;

/** A finite JSON number or numeric string as an exact decimal; null when it is neither. */
export function toDecimal(value: unknown): Decimal | null {
  if (typeof value === 'number') return Number.isFinite(value) ? new Decimal(value) : null;
  if (typeof value === 'string' && DECIMAL_TEXT.test(value.trim()))
    return new Decimal(value.trim());
  return null;
}
