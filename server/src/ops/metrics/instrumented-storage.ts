import { storageBatches, type BatchLimits } from '@runledger/adapters';
import type { ReceiptSink, Storage } from '@runledger/core/ports';
import type { Metrics } from './registry.js';

/**
 * The storage port with timings and mint counts around it. Core stays unaware: a mint is a receipt
 * inserted by a write transaction, counted only once that transaction is durable. Batched
 * transactions are made over the timed ones, with the limits storage was opened with.
 */
export function instrumentedStorage(
  storage: Storage,
  metrics: Metrics,
  batching: BatchLimits,
): Storage {
  const timed = async <T>(kind: 'read' | 'write', run: () => Promise<T>): Promise<T> => {
    const stop = metrics.transactionSeconds.startTimer({ kind });
    try {
      const value = await run();
      stop({ outcome: 'ok' });
      return value;
    } catch (error) {
      stop({ outcome: 'error' });
      throw error;
    }
  };
  const write: Storage['write'] = async (fn) => {
    let minted = 0;
    const value = await timed('write', () =>
      storage.write((tx) =>
        fn({
          ...tx,
          receipts: {
            ...tx.receipts,
            insert: async (receipt) => {
              await tx.receipts.insert(receipt);
              minted += 1;
            },
          },
        }),
      ),
    );
    metrics.receiptsMinted.inc(minted);
    return value;
  };
  const read: Storage['read'] = (fn) => timed('read', () => storage.read(fn));
  return {
    read,
    write,
    ...storageBatches({ read, write }, batching),
    close: () => storage.close(),
  };
}

/** The receipt sink, counting the router receipts it appended. */
export function instrumentedReceiptSink<S extends ReceiptSink>(sink: S, metrics: Metrics): S {
  return {
    ...sink,
    append: async (input) => {
      const line = await sink.append(input);
      metrics.routerReceipts.inc();
      return line;
    },
  };
}
