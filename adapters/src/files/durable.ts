import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';

/** fsync a file or directory by path, so a rename or append survives a power cut. */
export async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Atomically moves a synced file into place and syncs the directory entry. */
export async function durableRename(from: string, to: string): Promise<void> {
  await syncPath(from);
  await rename(from, to);
  await syncPath(dirname(to));
}
