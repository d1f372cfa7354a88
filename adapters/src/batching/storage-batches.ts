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
 * The port's batched transactions over an engine's `read` and `write`: every batcher made here is
 * a BatchQueue (queue.ts) whose batch runs in one transaction, as large as the load makes it. An
 * idle key's writes start at once (a lone ask never waits); its reads start once the current turn
 * of the event loop has run, so the lookups of requests parsed from one read of the sockets share
 * one read transaction. SQLite answers a read before the next ask is even parsed, so without that
 * turn its reads would never share one; on PostgreSQL it spares the first lookup a transaction of
 * its own. A turn is no timer: the wait is the rest of that turn's callbacks.
 */
export function storageBatches(
  transactions: Pick<Storage, 'read' | 'write'>,
  limits: BatchLimits = {},
): Pick<Storage, 'writeBatches' | 'readBatches'> {
  const { writeAsks, readAsks } = { ...DEFAULT_BATCH_LIMITS, ...limits };
  return {
    writeBatches<A, R>(apply: BatchApply<WriteTransaction, A, R>) {
      const queue = new BatchQueue<A, R>({ max: writeAsks, start: 'now' }, (key, asks) =>
        transactions.write((tx) => apply(tx, key, asks)),
      );
      return (key: string, ask: A) => queue.submit(key, ask);
    },
    readBatches<A, R>(apply: BatchApply<Repositories, A, R>) {
      const queue = new BatchQueue<A, R>({ max: readAsks, start: 'turn' }, (key, asks) =>
        transactions.read((tx) => apply(tx, key, asks)),
      );
      return (key: string, ask: A) => queue.submit(key, ask);
    },
  };
}
