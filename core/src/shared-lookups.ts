import { keyedBatches } from './keyed-batches.js';
import type { Repositories, Storage } from './ports/storage.js';

/** Lookups per shared transaction at most. */
const MAX_LOOKUPS = 128;

/**
 * Point lookups that arrive together share one read transaction (the sign-in lookups every request
 * makes). The first lookup starts a transaction at once; those arriving while it runs wait and go
 * together into the next one, each distinct key read once, all sent together. So a lookup never
 * waits for a timer, and its snapshot is always taken after it was asked for: it sees everything
 * committed before its request arrived (a demotion, a revoked worker), as a transaction of its own
 * would. What it saves is a transaction per request: on PostgreSQL, a round trip and a BEGIN and
 * COMMIT each.
 */
export function sharedLookups<A, V>(
  storage: Storage,
  keyOf: (ask: A) => string,
  read: (tx: Repositories, ask: A) => Promise<V>,
): (ask: A) => Promise<V> {
  const lookup = keyedBatches<A, V>(MAX_LOOKUPS, (_batch, asks) =>
    storage.read(async (tx) => {
      const reads = new Map<string, Promise<V>>();
      for (const ask of asks) {
        const key = keyOf(ask);
        if (!reads.has(key)) reads.set(key, read(tx, ask));
      }
      // Every read was sent before the first await: one round trip on PostgreSQL.
      const settled = await Promise.all(reads.values());
      const values = new Map([...reads.keys()].map((key, i) => [key, settled[i] as V]));
      return asks.map((ask) => ({ ok: true as const, value: values.get(keyOf(ask)) as V }));
    }),
  );
  return (ask) => lookup('lookups', ask);
}
