/**
 * Ports the SQLite DDL of a migration to PostgreSQL. The SQLite schema only uses TEXT, INTEGER,
 * REAL and one AUTOINCREMENT key, so the port is a few type swaps:
 * - TEXT gets COLLATE "C": ORDER BY and keyset comparisons then use byte order, as SQLite does,
 *   whatever the database's default collation;
 * - INTEGER becomes BIGINT (sizes, sequence numbers) and REAL becomes DOUBLE PRECISION (REAL is
 *   only 4 bytes in PostgreSQL);
 * - INTEGER PRIMARY KEY AUTOINCREMENT becomes BIGSERIAL PRIMARY KEY.
 * Partial indexes, CHECK constraints and ON CONFLICT are the same in both.
 */
export function portDdl(sqliteDdl: string): string {
  return sqliteDdl
    .replace(/\bINTEGER PRIMARY KEY AUTOINCREMENT\b/g, 'BIGSERIAL PRIMARY KEY')
    .replace(/\bINTEGER\b/g, 'BIGINT')
    .replace(/\bREAL\b/g, 'DOUBLE PRECISION')
    .replace(/\bTEXT\b/g, 'TEXT COLLATE "C"');
}
