import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Every file under DATA_DIR/blobs (stored blobs and spool leftovers), as paths relative to it. */
export async function blobFiles(dataDir: string): Promise<string[]> {
  const root = join(dataDir, 'blobs');
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}
