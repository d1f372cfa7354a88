import type { Repositories, WriteTransaction } from '@runledger/core/ports';

/** Hands a statement sent and not awaited to the transaction as its last (`WriteTransaction.closeWith`). */
export type CloseWith = (statement: Promise<unknown>) => void;

/**
 * The statements one transaction hands over, in the order handed: `rejection` is the first one's own
 * rejection (a repository may turn a driver's error into its own, and the caller into a domain
 * error, on the way). The transaction rejects with it where a guarded update's miss is what failed
 * it (docs/storage.md). Its handler keeps a rejection from going unhandled before then.
 */
export function handedOver(): {
  closeWith: CloseWith;
  readonly count: () => number;
  rejection(): Promise<{ error: unknown } | null>;
} {
  const statements: Promise<unknown>[] = [];
  return {
    closeWith: (statement) => {
      statement.catch(() => undefined);
      statements.push(statement);
    },
    count: () => statements.length,
    async rejection() {
      for (const statement of statements) {
        try {
          await statement;
        } catch (error) {
          return { error };
        }
      }
      return null;
    },
  };
}

/** The repositories of one write transaction plus its `lock(key)` and `closeWith`, as the storage port hands them out. */
export function writeTransaction(
  repositories: Repositories,
  lock: (key: string) => Promise<void>,
  closeWith: CloseWith,
): WriteTransaction {
  return { ...repositories, lock, closeWith };
}
