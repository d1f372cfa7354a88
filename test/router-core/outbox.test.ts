import fc from 'fast-check';
import { testCheckpointSigner } from '@runledger/core/testing';
import { cryptoRandom } from '@runledger/adapters';
import { createRunledger } from '@runledger/core';
import type { RouterReceiptInput } from '@runledger/core/ports';
import { verifyRouterReceiptFiles } from '@runledger/verify';
import { describe, expect, it, vi } from 'vitest';
import { openRouterWorld, readReceipts, type RouterCoreWorld } from './setup.js';
import { engines } from '../helpers/postgres.js';

describe.each(engines)('%s', (engine) => {
  const receipt = (n: number, createdAt: string): RouterReceiptInput => ({
    receipt_id: `rr_test${String(n).padStart(4, '0')}`,
    type: 'worker_registered',
    created_at: createdAt,
    subject: { worker_id: `wkr_${n}` },
  });

  async function outboxRows(w: RouterCoreWorld) {
    return w.storage.write((tx) => tx.routerOutbox.list(1000));
  }

  /** Where a simulated crash left each receipt. */
  type Fate = 'row_only' | 'row_and_line' | 'line_only';

  describe('receipt outbox recovery', () => {
    it('after a crash appends the row whose line is missing, skips the one whose line exists, and empties the outbox', async () => {
      const w = await openRouterWorld({}, undefined, engine);
      try {
        const at = w.clock.now().toISOString();
        const written = receipt(1, at);
        const lost = receipt(2, at);
        // Crash after append, before the outbox delete; and crash after commit, before the append.
        await w.storage.write(async (tx) => {
          await tx.routerOutbox.insert(written);
          await tx.routerOutbox.insert(lost);
        });
        await w.sink.append(written);
        await w.restart();
        expect(await w.router.flushOutbox()).toBe(1);
        expect(await w.router.flushOutbox()).toBe(0);
        const ids = (await readReceipts(w.receiptsDir)).map((l) => l.receipt_id);
        expect(ids).toEqual([written.receipt_id, lost.receipt_id]);
        expect(await outboxRows(w)).toEqual([]);
        expect((await verifyRouterReceiptFiles(w.receiptsDir)).ok).toBe(true);
      } finally {
        await w.close();
      }
    });

    it('leaves no outbox row behind after a normal call', async () => {
      const w = await openRouterWorld({}, undefined, engine);
      try {
        await w.router.registerWorker({ name: 'w', node_class: 'gpu_a_96gb' });
        // The line is durable when the call returns; its row is deleted just after, in the background.
        await vi.waitFor(async () => expect(await outboxRows(w)).toEqual([]));
        expect(await readReceipts(w.receiptsDir)).toHaveLength(1);
      } finally {
        await w.close();
      }
    });

    it('leaves no outbox row behind after many calls at once (their deletes batched)', async () => {
      const w = await openRouterWorld({}, undefined, engine);
      try {
        await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            w.router.registerWorker({ name: `w${i}`, node_class: 'gpu_a_96gb' }),
          ),
        );
        await vi.waitFor(async () => expect(await outboxRows(w)).toEqual([]));
        const ids = (await readReceipts(w.receiptsDir)).map((l) => l.receipt_id);
        expect(ids).toHaveLength(40);
        expect(new Set(ids).size).toBe(40);
      } finally {
        await w.close();
      }
    });

    it('never writes a line twice and never loses one, whatever a crash left behind, across day files', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              fate: fc.constantFrom<Fate>('row_only', 'row_and_line', 'line_only'),
              day: fc.integer({ min: 0, max: 1 }),
            }),
            {
              minLength: 1,
              maxLength: 12,
            },
          ),
          async (plan) => {
            const w = await openRouterWorld({}, undefined, engine);
            try {
              const base = w.clock.now().getTime();
              // Receipts in creation order; lines land in each day file in that order, as the sink writes them.
              const all = plan
                .map((p, n) => ({
                  ...p,
                  r: receipt(n, new Date(base + p.day * 86_400_000 + n).toISOString()),
                }))
                .sort((a, b) => a.r.created_at.localeCompare(b.r.created_at));
              await w.storage.write(async (tx) => {
                for (const p of all) if (p.fate !== 'line_only') await tx.routerOutbox.insert(p.r);
              });
              for (const p of all) if (p.fate !== 'row_only') await w.sink.append(p.r);
              await w.restart();
              await w.router.flushOutbox();
              const ids = (await readReceipts(w.receiptsDir)).map((l) => l.receipt_id);
              expect(ids.slice().sort()).toEqual(all.map((p) => p.r.receipt_id).sort());
              expect(new Set(ids).size).toBe(ids.length);
              expect(await outboxRows(w)).toEqual([]);
              expect((await verifyRouterReceiptFiles(w.receiptsDir)).ok).toBe(true);
            } finally {
              await w.close();
            }
          },
        ),
        { numRuns: 30 },
      );
    }, 60_000);
  });

  describe('a receipt sink that fails after commit', () => {
    it('keeps the outbox row, so the restart appends the line exactly once', async () => {
      const w = await openRouterWorld({}, undefined, engine);
      try {
        const broken = createRunledger(
          {
            storage: w.storage,
            clock: w.clock,
            blobs: w.blobs,
            random: cryptoRandom(),
            mailer: { configured: false, send: async () => undefined },
            receiptSink: {
              append: () => Promise.reject(new Error('disk full')),
              recentReceiptIds: async () => new Set<string>(),
            },
            checkpointSigner: testCheckpointSigner(),
          },
          w.config,
        );
        await expect(
          broken.router.registerWorker({ name: 'w', node_class: 'gpu_a_96gb' }),
        ).rejects.toThrow('disk full');
        // The change committed with its receipt row; no line was written.
        expect(await w.storage.write((tx) => tx.workers.count())).toBe(1);
        const [row] = await outboxRows(w);
        expect(row?.type).toBe('worker_registered');
        await w.restart();
        expect(await w.router.flushOutbox()).toBe(1);
        expect((await readReceipts(w.receiptsDir)).map((l) => l.receipt_id)).toEqual([
          row!.receipt_id,
        ]);
        expect(await outboxRows(w)).toEqual([]);
      } finally {
        await w.close();
      }
    });
  });
});
