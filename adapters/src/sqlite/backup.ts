import Database from 'better-sqlite3';

/** Pages per backup step: all of them, so the copy is one read transaction, one instant. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the SQLite database at `source` into the new file `target` through SQLite's online
 * backup API while other connections (a running server) go on writing. After a first step that
 * only counts the pages, every remaining page is copied in one step: a step holds one read
 * transaction, so the copy is the database as of one commit. Smaller steps would restart each time
 * another connection commits in between, and a mint storm could keep that going for ever.
 */
export async function backupSqliteDatabase(source: string, target: string): Promise<void> {
  const db = new Database(source, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    await db.backup(target, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
}
