import type { Repositories, WriteTransaction } from '@runledger/core/ports';

/** The repositories of one write transaction plus its `lock(key)`, as the storage port hands them out. */
export function writeTransaction(
  repositories: Repositories,
  lock: (key: string) => Promise<void>,
): WriteTransaction {
  return { ...repositories, lock };
}
