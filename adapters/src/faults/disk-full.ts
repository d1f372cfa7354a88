import { StorageFaultError } from '@runledger/core';

/**
 * A write refused for lack of room: the file system's ENOSPC (or EDQUOT, a quota), SQLite's
 * SQLITE_FULL (its unix VFS turns ENOSPC into it) and SQLITE_IOERR_SHMSIZE (the WAL index cannot
 * grow), PostgreSQL's disk_full (53100).
 */
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE', '53100']);

export function isNoSpace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && NO_SPACE.has(code);
}

/** `error` as a `disk_full` storage fault when it is one, else unchanged. */
export function asDiskFull(error: unknown): unknown {
  return isNoSpace(error) && !(error instanceof StorageFaultError)
    ? new StorageFaultError('disk_full', error)
    : error;
}

/** Runs `write`, rethrowing a lack of room as a `disk_full` storage fault (answered 503). */
export async function diskFullAware<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw asDiskFull(error);
  }
}
