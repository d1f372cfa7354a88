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
      // Each distinct key read once; every read sent before the first await (one round trip on
      // PostgreSQL).
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
    }),
  );
  return (ask) => lookup('lookups', ask);
}
