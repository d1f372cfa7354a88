import type { Repositories, WriteTransaction } from '@runledger/core/ports';

/**
 * How the SQL engines run the writes that end a transaction (`WriteTransaction.endWith`). Core says
 * only that they end it and that the transaction stands or falls with them; the choreography is
 * decided here and in each engine's connection:
 * - PostgreSQL (postgres/connection.ts): the ending writes are sent and not awaited, and COMMIT
 *   leaves right behind them on the same socket (pipeline mode runs it after them), so the writes
 *   and COMMIT cost one round trip together, however many writes there are. A write that fails
 *   aborts the transaction and COMMIT answers ROLLBACK. A guarded update that could miss is sent in
 *   its failing form (dialect.ts, `failUnchanged`), so its miss aborts the transaction too, and the
 *   transaction is refused with the caller's own error (the first ending write's rejection).
 * - SQLite (sqlite/group-commit.ts): a statement has run to completion when sent, so nothing is
 *   gained by sending them with the end: the ending writes are awaited before the savepoint is
 *   released, and the first one's rejection refuses the transaction, as on PostgreSQL.
 */
export type EndWith = (...writes: Promise<unknown>[]) => void;

/**
 * The writes that end one transaction, in the order given: `rejection` is the first one's own
 * rejection (a repository may turn a driver's error into its own, and the caller into a domain
 * error, on the way). The transaction is refused with it where a guarded update's miss is what
 * failed it. Its handler keeps a rejection from going unhandled before then.
 */
export function endingWrites(): {
  endWith: EndWith;
  readonly count: () => number;
  rejection(): Promise<{ error: unknown } | null>;
} {
  const writes: Promise<unknown>[] = [];
  return {
    endWith: (...given) => {
      for (const write of given) {
        write.catch(() => undefined);
        writes.push(write);
      }
    },
    count: () => writes.length,
    async rejection() {
      for (const write of writes) {
        try {
          await write;
        } catch (error) {
          return { error };
        }
      }
      return null;
    },
  };
}

/** The repositories of one write transaction plus its `lock(key)` and `endWith`, as the storage port hands them out. */
export function writeTransaction(
  repositories: Repositories,
  lock: (key: string) => Promise<void>,
  endWith: EndWith,
): WriteTransaction {
  return { ...repositories, lock, endWith };
}
