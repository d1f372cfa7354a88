import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { syncPath } from '../files/durable.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const heldHere = new Set<string>();

/**
 * One writer per DATA_DIR: a lock file holding the owner's pid. The file appears complete or not at
 * all (written aside, then hard-linked into place), so a second process never reads a half-written
 * lock. A lock left by a process that no longer runs (a crash) is taken over; a live owner makes the
 * second writer fail loudly at start.
 */
export async function acquireWriterLock(path: string): Promise<() => Promise<void>> {
  if (heldHere.has(path)) throw new Error(`another writer in this process holds ${path}`);
  const aside = `${path}.${process.pid}.tmp`;
  await writeFile(aside, String(process.pid), { mode: 0o600 });
  await syncPath(aside);
  try {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        await link(aside, path);
        heldHere.add(path);
        return async () => {
          heldHere.delete(path);
          await rm(path, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
        if (Number.isInteger(owner) && owner !== process.pid && alive(owner)) {
          throw new Error(
            `another process (pid ${owner}) is writing receipts in this data directory`,
            { cause: error },
          );
        }
        // A dead owner's lock, or our own pid left by an earlier crash of a process that reused it.
        await rm(path, { force: true });
      }
    }
    throw new Error(`could not take the receipt writer lock ${path}`);
  } finally {
    await rm(aside, { force: true });
  }
}
