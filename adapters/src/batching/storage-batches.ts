import type { BatchApply, Repositories, Storage, WriteTransaction } from '@runledger/core/ports';
import { BatchQueue } from './queue.js';

/**
 * How much work storage lets share one transaction, set where storage is opened (the composition
 * root: server/src/start.ts). Each limit bounds how long one batch holds its locks or the writer.
 */
export interface BatchLimits {
  /** Asks per `writeBatches` transaction (default 128: a batch of mints holds a chain's lock a few milliseconds). */
  writeAsks?: number;
  /** Asks per `readBatches` transaction (default 128). */
  readAsks?: number;
  /** SQLite: write transactions per group commit, one fsync each (default 256). */
  groupCommit?: number;
}

export const DEFAULT_BATCH_LIMITS: Required<BatchLimits> = {
  writeAsks: 128,
  readAsks: 128,
  groupCommit: 256,
};

/**
 * An engine's transactions. `writeApplied`, where the engine has it, is `write` that also tells
 * `applied` once the transaction's writes are in place for every later write transaction, before
 * they are durable: on SQLite's one writer, as its savepoint ends (a later transaction runs on the
 * same connection, and is durable only with it).
 */
export interface EngineTransactions extends Pick<Storage, 'read' | 'write'> {
  writeApplied?: <T>(fn: (tx: WriteTransaction) => Promise<T>, applied: () => void) => Promise<T>;
}

/**
 * The port's batched transactions over an engine's `read` and `write`: every batcher made here is
 * a BatchQueue (queue.ts) whose batch runs in one transaction, started at once for an idle key (a
 * lone ask never waits) and as large as the load makes it. A key's next write batch starts once
 * the last is applied (`writeApplied`) where the engine says when, else once it is durable.
 */
export function storageBatches(
  transactions: EngineTransactions,
  limits: BatchLimits = {},
): Pick<Storage, 'writeBatches' | 'readBatches'> {
  const { writeAsks, readAsks } = { ...DEFAULT_BATCH_LIMITS, ...limits };
  const { writeApplied } = transactions;
  return {
    writeBatches<A, R>(apply: BatchApply<WriteTransaction, A, R>) {
      const queue = new BatchQueue<A, R>({ max: writeAsks, start: 'now' }, (key, asks, release) =>
        writeApplied !== undefined
          ? writeApplied((tx) => apply(tx, key, asks), release)
          : transactions.write((tx) => apply(tx, key, asks)),
      );
      return (key: string, ask: A) => queue.submit(key, ask);
    },
    readBatches<A, R>(apply: BatchApply<Repositories, A, R>) {
      const queue = new BatchQueue<A, R>({ max: readAsks, start: 'now' }, (key, asks) =>
        transactions.read((tx) => apply(tx, key, asks)),
      );
      return (key: string, ask: A) => queue.submit(key, ask);
    },
  };
}
