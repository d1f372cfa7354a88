import type { AuditReceiptRecord, Storage } from '@runledger/core/ports';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const T0 = '2025-01-01T00:00:00.000Z';

const row = (org: string, seq: number, type = 'api_key.created'): AuditReceiptRecord => ({
  receipt_id: `audit-${String(seq).padStart(6, '0')}-${org}`,
  org_id: org,
  org_seq: seq,
  event_type: type,
  parent_hash: '0'.repeat(64),
  receipt_sha256: String(seq % 10).repeat(64),
  payload_text: `{"org_seq":${seq}}`,
  created_at: T0,
});

/** The audit receipts and failed sign-in counters (migration 7) on a real engine. */
export function describeAuditStorageContract(name: string, open: () => Promise<Storage>): void {
  describe(`${name}: audit receipts`, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await open();
      await storage.write(async (tx) => {
        await tx.orgs.insert({ id: 'org_1', name: 'One', created_at: T0 });
        await tx.orgs.insert({ id: 'org_2', name: 'Two', created_at: T0 });
      });
    });
    afterEach(async () => {
      await storage.close();
    });

    it('keeps each org’s chain apart, in org_seq order, with its head, count, chunks and type filter', async () => {
      await storage.write(async (tx) => {
        for (let seq = 0; seq < 5; seq++) {
          await tx.auditReceipts.insert(
            row('org_1', seq, seq % 2 ? 'member.removed' : 'api_key.created'),
          );
        }
        await tx.auditReceipts.insert(row('org_2', 0));
      });
      await storage.read(async (tx) => {
        expect(await tx.auditReceipts.head('org_1')).toEqual({
          org_seq: 4,
          receipt_sha256: '4'.repeat(64),
        });
        expect(await tx.auditReceipts.head('org_3')).toBeNull();
        expect(await tx.auditReceipts.count('org_1', 3)).toBe(4);
        const all = await tx.auditReceipts.list('org_1', -1, 10, null);
        expect(all).toEqual(
          [0, 1, 2, 3, 4].map((s) => row('org_1', s, s % 2 ? 'member.removed' : 'api_key.created')),
        );
        const removed = await tx.auditReceipts.list('org_1', 1, 10, 'member.removed');
        expect(removed.map((r) => r.org_seq)).toEqual([3]);
        const chunk = await tx.auditReceipts.chunk('org_1', 0, 3, 2);
        expect(chunk.map((r) => r.org_seq)).toEqual([1, 2]);
        expect((await tx.auditReceipts.list('org_2', -1, 10, null)).map((r) => r.org_id)).toEqual([
          'org_2',
        ]);
      });
    });

    it('refuses a second receipt at an org_seq (a fork), leaving the first', async () => {
      await storage.write((tx) => tx.auditReceipts.insert(row('org_1', 0)));
      const fork = { ...row('org_1', 0), receipt_id: 'audit-000000-fork' };
      await expect(storage.write((tx) => tx.auditReceipts.insert(fork))).rejects.toThrow();
      const rows = await storage.read((tx) => tx.auditReceipts.list('org_1', -1, 10, null));
      expect(rows.map((r) => r.receipt_id)).toEqual([row('org_1', 0).receipt_id]);
    });

    it('counts failed sign-ins per (org, window) in one row, and removes a written window', async () => {
      const w1 = '2025-01-01T00:00:00.000Z';
      const w2 = '2025-01-01T00:15:00.000Z';
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          storage.write((tx) =>
            tx.signInFailures.add('org_1', w1, `2025-01-01T00:00:${String(i + 10)}.000Z`),
          ),
        ),
      );
      await storage.write(async (tx) => {
        await tx.signInFailures.add('org_1', w2, '2025-01-01T00:16:00.000Z');
        await tx.signInFailures.add('org_2', w1, '2025-01-01T00:01:00.000Z');
      });
      const pending = await storage.read((tx) => tx.signInFailures.pending('org_1'));
      expect(pending.map((p) => [p.window_start, p.count])).toEqual([
        [w1, 20],
        [w2, 1],
      ]);
      expect(pending[0]!.first_at < pending[0]!.last_at).toBe(true);
      await storage.write((tx) => tx.signInFailures.remove('org_1', w1));
      expect(
        (await storage.read((tx) => tx.signInFailures.pending('org_1'))).map((p) => p.window_start),
      ).toEqual([w2]);
      expect(await storage.read((tx) => tx.signInFailures.pending('org_2'))).toHaveLength(1);
    });
  });
}
