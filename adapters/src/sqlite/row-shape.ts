/** Builds a row object from the column values of one result row, in column order. */
export type RowShape = (values: readonly unknown[]) => Record<string, unknown>;

/**
 * A row builder for a statement's columns: one object literal with the columns as its keys,
 * compiled once per statement. better-sqlite3's own row objects are built key by key through V8's
 * API; rows read as arrays (`raw`) and shaped by a literal come out a third cheaper to read and to
 * use (each literal gives its rows one hidden class). As with better-sqlite3's objects, a name that
 * appears twice keeps its last column. A column named `__proto__` becomes an own key (a computed
 * key), never the prototype (better-sqlite3 drops it).
 */
export function rowShape(columns: readonly string[]): RowShape {
  const fields = columns.map((name, i) => {
    const key = JSON.stringify(name);
    return `${name === '__proto__' ? `[${key}]` : key}: values[${i}]`;
  });
  // The keys are escaped as JSON strings, so no column name can end the literal.
  return new Function('values', `return { ${fields.join(', ')} };`) as RowShape;
}
