import { z } from 'zod';

/**
 * The one integer rule for query parameters: plain decimal digits, no sign, no leading zero, no
 * spaces, no exponent, hex or fraction. `1e2`, `0x10`, `5.0`, `+5`, ` 10` and an empty value are 400s.
 */
export const INTEGER_PATTERN = /^(0|[1-9][0-9]{0,14})$/;

/** A query-string integer within [min, max] under the rule above. */
export function queryInt(min: number, max: number = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .regex(INTEGER_PATTERN, 'must be an integer written in plain digits')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}
