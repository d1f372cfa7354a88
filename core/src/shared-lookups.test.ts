import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BatchApply, Repositories, Storage } from './ports/storage.js';
import { sharedLookups } from './shared-lookups.js';

// A pure unit: the storage is a fake whose "database" is a version number that writes bump; a read
// transaction sees the version as of its start, as a snapshot would. Its batched reads gather the
// asks of one turn of the event loop into one read (the real batcher, adapters/src/batching, is
// tested there).
interface Fake {
  storage: Storage;
  version: () => number;
  bump: () => void;
  transactions: Array<{ keys: string[] }>;
}

function fakeStorage(): Fake {
  let version = 0;
  const transactions: Array<{ keys: string[] }> = [];
  const read = async <T>(fn: (tx: Repositories) => Promise<T>): Promise<T> => {
    const snapshot = version;
    const keys: string[] = [];
    transactions.push({ keys });
    const tx = {
      lookup: async (key: string) => {
        keys.push(key);
        await new Promise<void>((resolve) => setImmediate(resolve));
        return `${key}@${snapshot}`;
      },
    } as unknown as Repositories;
    return fn(tx);
  };
  const readBatches = <A, R>(apply: BatchApply<Repositories, A, R>) => {
    let gathered: Array<{ ask: A; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
    return (key: string, ask: A) =>
      new Promise<R>((resolve, reject) => {
        if (gathered.push({ ask, resolve, reject }) > 1) return;
        setImmediate(() => {
          const batch = gathered;
          gathered = [];
          void read((tx) =>
            apply(
              tx,
              key,
              batch.map((b) => b.ask),
            ),
          ).then((outcomes) =>
            outcomes.forEach((o, i) =>
              o.ok ? batch[i]!.resolve(o.value) : batch[i]!.reject(o.error),
            ),
          );
        });
      });
  };
  const storage = {
    read,
    readBatches,
    write: () => Promise.reject(new Error('not used')),
    close: () => Promise.resolve(),
  } as unknown as Storage;
  return { storage, version: () => version, bump: () => (version += 1), transactions };
}

const lookupOf = (fake: Fake) =>
  sharedLookups<string, string>(
    fake.storage,
    (key) => key,
    (tx, key) => (tx as unknown as { lookup: (k: string) => Promise<string> }).lookup(key),
  );

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('sharedLookups', () => {
  it('answers each lookup with its own key, from a snapshot taken after it was asked, reading each key once per transaction (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            key: fc.constantFrom('a', 'b', 'c', 'd'),
            // A write made durable just before this lookup is asked.
            write: fc.boolean(),
            // Turns of the event loop before the next lookup.
            gap: fc.integer({ min: 0, max: 2 }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        async (steps) => {
          const fake = fakeStorage();
          const lookup = lookupOf(fake);
          const answers: Array<Promise<{ value: string; askedAt: number; key: string }>> = [];
          for (const step of steps) {
            if (step.write) fake.bump();
            const askedAt = fake.version();
            answers.push(lookup(step.key).then((value) => ({ value, askedAt, key: step.key })));
            for (let i = 0; i < step.gap; i += 1) await tick();
          }
          for (const { value, askedAt, key } of await Promise.all(answers)) {
            const [answeredKey, snapshot] = value.split('@');
            expect(answeredKey).toBe(key);
            // Never an answer older than the lookup: whatever was durable before it is seen.
            expect(Number(snapshot)).toBeGreaterThanOrEqual(askedAt);
          }
          for (const { keys } of fake.transactions) {
            expect(new Set(keys).size).toBe(keys.length);
          }
        },
      ),
    );
  });

  it('reads a key asked twice in one shared transaction once', async () => {
    const fake = fakeStorage();
    const lookup = lookupOf(fake);
    const answers = await Promise.all(['a', 'b', 'a', 'c', 'a'].map((key) => lookup(key)));
    expect(answers).toEqual(['a@0', 'b@0', 'a@0', 'c@0', 'a@0']);
    expect(fake.transactions.map((t) => t.keys)).toEqual([['a', 'b', 'c']]);
  });
});
