import { open, readFile, rm } from 'node:fs/promises';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One writer per DATA_DIR: an exclusive lock file holding the owner's pid. A lock left by a process that
 * no longer runs (a crash) is taken over; a live owner makes the second writer fail loudly at start.
 */
const heldHere = new Set<string>();

export async function acquireWriterLock(path: string): Promise<() => Promise<void>> {
  if (heldHere.has(path)) throw new Error(`another writer in this process holds ${path}`);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.sync();
      await handle.close();
      heldHere.add(path);
      return async () => {
        heldHere.delete(path);
        await rm(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(owner) && (owner === process.pid ? heldHere.has(path) : alive(owner))) {
        throw new Error(
          `another process (pid ${owner}) is writing receipts in this data directory`,
          { cause: error },
        );
      }
      await rm(path, { force: true });
    }
  }
  throw new Error(`could not take the receipt writer lock ${path}`);
}
