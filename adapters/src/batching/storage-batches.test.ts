import fc from 'fast-check';
import type { Repositories, Storage, WriteTransaction } from '@runledger/core/ports';
import { describe, expect, it } from 'vitest';
import { storageBatches } from './storage-batches.js';

// A pure unit: the "database" is a version number that writes bump; a transaction sees the version
// as of its start, as a snapshot would.
interface Fake {
  transactions: Pick<Storage, 'read' | 'write'>;
  version: () => number;
  bump: () => void;
  started: Array<{ kind: 'read' | 'write'; keys: string[] }>;
}

type Lookup = { lookup: (key: string) => Promise<string> };

function fake(): Fake {
  let version = 0;
  const started: Fake['started'] = [];
  const open = <T>(kind: 'read' | 'write', fn: (tx: never) => Promise<T>): Promise<T> => {
    const snapshot = version;
    const keys: string[] = [];
    started.push({ kind, keys });
    const tx: Lookup = {
      lookup: async (key) => {
        keys.push(key);
        await new Promise<void>((resolve) => setImmediate(resolve));
        return `${key}@${snapshot}`;
      },
    };
    return fn(tx as never);
  };
  return {
    transactions: { read: (fn) => open('read', fn), write: (fn) => open('write', fn) },
    version: () => version,
    bump: () => (version += 1),
    started,
  };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

const lookups =
  (kind: 'read' | 'write') =>
  async (tx: Repositories | WriteTransaction, _key: string, asks: readonly string[]) =>
    (await Promise.all(asks.map((ask) => (tx as unknown as Lookup).lookup(ask)))).map((value) => ({
      ok: true as const,
      value: `${kind}:${value}`,
    }));

describe('storageBatches', () => {
  it('answers each ask from a transaction started after it was asked, one batch per key at a time, at most the limit each (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            kind: fc.constantFrom<'read' | 'write'>('read', 'write'),
            key: fc.constantFrom('a', 'b', 'c', 'd'),
            // A write made durable just before this ask.
            bump: fc.boolean(),
            // Turns of the event loop before the next ask.
            gap: fc.integer({ min: 0, max: 2 }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        fc.integer({ min: 1, max: 4 }),
        async (steps, limit) => {
          const world = fake();
          const batches = storageBatches(world.transactions, {
            readAsks: limit,
            writeAsks: limit,
          });
          const read = batches.readBatches(lookups('read'));
          const write = batches.writeBatches(lookups('write'));
          const answers: Array<Promise<{ value: string; askedAt: number; want: string }>> = [];
          for (const step of steps) {
            if (step.bump) world.bump();
            const askedAt = world.version();
            const ask = step.kind === 'read' ? read : write;
            answers.push(
              ask('one key', step.key).then((value) => ({
                value,
                askedAt,
                want: `${step.kind}:${step.key}`,
              })),
            );
            for (let i = 0; i < step.gap; i += 1) await tick();
          }
          for (const { value, askedAt, want } of await Promise.all(answers)) {
            const [answered, snapshot] = value.split('@');
            expect(answered).toBe(want);
            // Never an answer older than the ask: whatever was durable before it is seen.
            expect(Number(snapshot)).toBeGreaterThanOrEqual(askedAt);
          }
          for (const { keys } of world.started) expect(keys.length).toBeLessThanOrEqual(limit);
          expect(world.started.flatMap((t) => t.keys)).toHaveLength(steps.length);
        },
      ),
    );
  });

  it("starts an idle key's writes at once and shares one transaction among the asks that arrive while it runs", async () => {
    const world = fake();
    const write = storageBatches(world.transactions).writeBatches(lookups('write'));
    const answers = await Promise.all(['a', 'b', 'a', 'c', 'a'].map((key) => write('k', key)));
    expect(answers).toEqual(['write:a@0', 'write:b@0', 'write:a@0', 'write:c@0', 'write:a@0']);
    expect(world.started.map((t) => t.keys)).toEqual([['a'], ['b', 'a', 'c', 'a']]);
  });

  it("starts an idle key's reads once the turn has run, so the asks of one turn share one transaction", async () => {
    const world = fake();
    const read = storageBatches(world.transactions).readBatches(lookups('read'));
    const first = Promise.all(['a', 'b', 'a'].map((key) => read('k', key)));
    // Asked in the same turn, before any transaction: nothing has started yet.
    expect(world.started).toEqual([]);
    world.bump();
    const second = Promise.all(['c', 'a'].map((key) => read('k', key)));
    expect(await first).toEqual(['read:a@1', 'read:b@1', 'read:a@1']);
    expect(await second).toEqual(['read:c@1', 'read:a@1']);
    expect(world.started.map((t) => t.keys)).toEqual([['a', 'b', 'a', 'c', 'a']]);
  });
});
