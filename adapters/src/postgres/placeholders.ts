/**
 * Rewrites SQLite-style `?` placeholders to PostgreSQL's `$1…$n`, so the repositories' SQL text is
 * shared by both adapters. A `?` inside a single-quoted literal is left alone.
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
