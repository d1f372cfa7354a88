import type { Repositories, WriteTransaction } from '@runledger/core/ports';

/** Hands a statement sent and not awaited to the transaction as its last (`WriteTransaction.closeWith`). */
export type CloseWith = (statement: Promise<unknown>) => void;

/** The repositories of one write transaction plus its `lock(key)` and `closeWith`, as the storage port hands them out. */
export function writeTransaction(
  repositories: Repositories,
  lock: (key: string) => Promise<void>,
  closeWith: CloseWith,
): WriteTransaction {
  return { ...repositories, lock, closeWith };
}
