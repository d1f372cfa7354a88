import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { copyInto, hashFile } from './files.js';
import { BackupError, readManifest, type Manifest } from './manifest.js';
import { pgRestore } from './postgres-tools.js';
import { PGDUMP_FILE, SQLITE_FILE } from './take-backup.js';

export interface RestoreTarget {
  /** The DATA_DIR to restore into. */
  dataDir: string;
  /** DATABASE_URL: an empty PostgreSQL database for a PostgreSQL backup; null for SQLite. */
  databaseUrl: string | null;
  /** Replace a database, blobs and day files already in dataDir (the server must be stopped). */
  replace: boolean;
}

/** What restore puts into DATA_DIR; everything else there (the signing key, STATE_DIR) stays. */
const RESTORED = [SQLITE_FILE, `${SQLITE_FILE}-wal`, `${SQLITE_FILE}-shm`, 'blobs', 'receipts'];

/** Every file the manifest lists, with its size and SHA-256, before anything is touched. */
async function checkFiles(from: string, manifest: Manifest): Promise<void> {
  for (const file of manifest.files) {
    const found = await hashFile(join(from, file.path)).catch(() => null);
    if (found === null) throw new BackupError(`${file.path} is missing from the backup`);
    if (found.sha256 !== file.sha256 || found.bytes !== file.bytes) {
      throw new BackupError(`${file.path} differs from the manifest (damaged backup)`);
    }
  }
}

async function clearTarget(target: RestoreTarget): Promise<void> {
  const present = await readdir(target.dataDir).catch(() => [] as string[]);
  const occupied = present.filter((name) => RESTORED.includes(name));
  if (occupied.length > 0 && !target.replace) {
    throw new BackupError(
      `${target.dataDir} already holds ${occupied.join(', ')}: stop the server and pass --replace to overwrite them`,
    );
  }
  for (const name of occupied)
    await rm(join(target.dataDir, name), { recursive: true, force: true });
  await mkdir(join(target.dataDir, 'receipts'), { recursive: true });
}

/**
 * Restores a backup folder into a DATA_DIR (and, for PostgreSQL, into the empty database at
 * DATABASE_URL through pg_restore): every file is checked against the manifest first, so a damaged
 * backup changes nothing. The signing key and STATE_DIR are not in a backup and are left as they are.
 */
export async function restoreBackup(from: string, target: RestoreTarget): Promise<Manifest> {
  const manifest = await readManifest(from);
  if (manifest.engine === 'postgres' && target.databaseUrl === null) {
    throw new BackupError(
      'this is a PostgreSQL backup: set DATABASE_URL to an empty database to restore into',
    );
  }
  if (manifest.engine === 'sqlite' && target.databaseUrl !== null) {
    throw new BackupError(
      'this is a SQLite backup: unset DATABASE_URL to restore it into DATA_DIR',
    );
  }
  await checkFiles(from, manifest);
  await mkdir(target.dataDir, { recursive: true });
  await clearTarget(target);
  if (manifest.engine === 'postgres') {
    await pgRestore(target.databaseUrl!, join(from, PGDUMP_FILE));
  }
  for (const file of manifest.files) {
    if (file.path === PGDUMP_FILE) continue;
    await copyInto(join(from, file.path), join(target.dataDir, file.path));
  }
  return manifest;
}
