import type { Repositories, Storage } from './ports/storage.js';

/**
 * Point lookups that arrive together share one read transaction (the sign-in lookups every request
 * makes), through the storage's batched reads (`Storage.readBatches`): a lookup never waits for a
 * timer, and its snapshot is always taken after it was asked for, so it sees everything made
 * durable before its request arrived (a demotion, a revoked worker), as a transaction of its own
 * would. Within one shared transaction each distinct key is read once, every read sent together.
 */
export function sharedLookups<A, V>(
  storage: Storage,
  keyOf: (ask: A) => string,
  read: (tx: Repositories, ask: A) => Promise<V>,
): (ask: A) => Promise<V> {
  const lookup = storage.readBatches<A, V>(async (tx, _batch, asks) => {
    const reads = new Map<string, Promise<V>>();
    const answers = asks.map((ask) => {
      const key = keyOf(ask);
      let value = reads.get(key);
      if (value === undefined) {
        value = read(tx, ask);
        reads.set(key, value);
      }
      return value;
    });
    return (await Promise.all(answers)).map((value) => ({ ok: true as const, value }));
  });
  return (ask) => lookup('lookups', ask);
}
