import { z } from 'zod';

/**
 * The one integer rule for query parameters: plain decimal digits, no sign, no leading zero, no
 * spaces, no exponent, hex or fraction. `1e2`, `0x10`, `5.0`, `+5`, ` 10` and an empty value are 400s.
 */
export const INTEGER_PATTERN = /^(0|[1-9][0-9]{0,14})$/;

const RULE = 'plain decimal digits: no sign, leading zero, space, exponent or fraction';

/**
 * A query-string integer within [min, max] under the rule above. The OpenAPI document shows it as an
 * integer, or (`digits`, for sequence numbers that were always documented so) as a digit string.
 */
export function queryInt(
  min: number,
  max: number = Number.MAX_SAFE_INTEGER,
  documentAs: 'integer' | 'digits' = 'integer',
) {
  return z
    .string()
    .regex(INTEGER_PATTERN, 'must be an integer written in plain digits')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .meta(
      documentAs === 'digits'
        ? { type: 'string', pattern: INTEGER_PATTERN.source, description: RULE }
        : {
            type: 'integer',
            minimum: min,
            ...(max < Number.MAX_SAFE_INTEGER ? { maximum: max } : {}),
            description: RULE,
          },
    );
}
