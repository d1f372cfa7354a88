import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  backupSqliteDatabase,
  openPostgresSnapshot,
  openSqliteSnapshot,
  type ReadSnapshot,
} from '@runledger/adapters';
import type { CheckpointSigner } from '@runledger/core/ports';
import { copyDayFiles } from './day-files.js';
import { copyInto, describeFile, exists, filesUnder, syncFile } from './files.js';
import {
  BackupError,
  EXCLUDED,
  MANIFEST_FILE,
  MANIFEST_FORMAT,
  logHeads,
  type Manifest,
} from './manifest.js';
import { pgDump } from './postgres-tools.js';

/** What a backup reads: the server's own configuration. */
export interface BackupSource {
  dataDir: string;
  databaseUrl: string | null;
  signer: CheckpointSigner;
  /** The host of PUBLIC_BASE_URL, the origin of re-signed anchors. */
  host: string;
}

export const SQLITE_FILE = 'runledger.sqlite';
export const PGDUMP_FILE = 'database.pgdump';

/** The instant's database in the backup folder, and a snapshot reading exactly it (closed by the caller). */
async function snapshotDatabase(
  source: BackupSource,
  out: string,
): Promise<{ snapshot: ReadSnapshot; file: string }> {
  if (source.databaseUrl === null) {
    const file = join(out, SQLITE_FILE);
    await backupSqliteDatabase(join(source.dataDir, SQLITE_FILE), file);
    return { snapshot: await openSqliteSnapshot(file), file: SQLITE_FILE };
  }
  const snapshot = await openPostgresSnapshot(source.databaseUrl);
  try {
    await pgDump(source.databaseUrl, snapshot.snapshotId, join(out, PGDUMP_FILE));
  } catch (error) {
    await snapshot.close();
    throw error;
  }
  return { snapshot, file: PGDUMP_FILE };
}

/** Copies the blobs the snapshot refers to; a referenced blob the store lacks is an error. */
async function copyBlobs(dataDir: string, out: string, shas: readonly string[]): Promise<void> {
  for (const sha of shas) {
    const relative = join('blobs', sha.slice(0, 2), sha);
    const from = join(dataDir, relative);
    if (!(await exists(from))) {
      throw new BackupError(`blob ${sha} is referenced by the database but missing from ${from}`);
    }
    await copyInto(from, join(out, relative));
  }
}

async function emptyFolder(out: string): Promise<void> {
  const entries = await readdir(out).catch(() => null);
  if (entries !== null && entries.length > 0) {
    throw new BackupError(`${out} is not empty: a backup goes into a new folder`);
  }
  await mkdir(join(out, 'receipts'), { recursive: true });
}

/**
 * Backs up a running deployment into the new folder `out`: the database as of one instant (SQLite's
 * online backup API, or pg_dump of an exported snapshot), then exactly the blobs that instant
 * refers to (content-addressed, never changed once written), then the router day files' complete
 * lines with anchors for them. The manifest is written last, through a rename: a folder without
 * one is not a backup. Secrets and STATE_DIR are left out (named in the manifest).
 */
export async function takeBackup(source: BackupSource, out: string): Promise<Manifest> {
  await emptyFolder(out);
  const takenAt = new Date();
  const { snapshot, file } = await snapshotDatabase(source, out);
  let logs: Manifest['logs'];
  let blobs: string[];
  try {
    logs = await logHeads(snapshot);
    blobs = await snapshot.scan.referencedBlobs();
  } finally {
    await snapshot.close();
  }
  await copyBlobs(source.dataDir, out, blobs);
  const dayFiles = await copyDayFiles(join(source.dataDir, 'receipts'), join(out, 'receipts'), {
    signer: source.signer,
    host: source.host,
    now: new Date(),
  });
  const files = await Promise.all(
    (await filesUnder(out)).sort().map((path) => describeFile(out, path)),
  );
  const sum = (log: string) =>
    logs.filter((l) => l.log === log).reduce((n, l) => n + l.receipts, 0);
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    version: 1,
    engine: source.databaseUrl === null ? 'sqlite' : 'postgres',
    taken_at: takenAt.toISOString(),
    database: file,
    logs,
    counts: {
      organizations: new Set(logs.map((l) => l.org_id)).size,
      receipts: sum('ledger'),
      audit_receipts: sum('audit'),
      blobs: blobs.length,
      day_files: dayFiles.length,
    },
    day_files: dayFiles,
    files,
    excluded: EXCLUDED,
  };
  const partial = join(out, `${MANIFEST_FILE}.partial`);
  await writeFile(partial, `${JSON.stringify(manifest, null, 1)}\n`);
  await syncFile(partial);
  await rename(partial, join(out, MANIFEST_FILE));
  return manifest;
}
