/**
 * The shared statements write their parameters as `?`; PostgreSQL numbers them `$1…$n`. A scan, not
 * a pattern: a `?` inside a single-quoted literal is left alone. Only placeholders change, never the
 * statement itself.
 */
export function numberPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let quoted = false;
  for (const ch of sql) {
    if (ch === "'") quoted = !quoted;
    if (ch === '?' && !quoted) {
      n += 1;
      out += `$${n}`;
    } else {
      out += ch;
    }
  }
  return out;
}
