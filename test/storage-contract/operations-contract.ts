import type { Storage } from '@runledger/core/ports';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const T0 = '2025-01-01T00:00:00.000Z';
const T1 = '2025-01-01T00:10:00.000Z';
const T2 = '2025-01-01T00:20:00.000Z';

/** Rate-limit windows and the scrape-time figures, the same on every engine. */
export function describeOperationsStorageContract(
  name: string,
  open: () => Promise<Storage>,
): void {
  describe(`${name}: operations storage`, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await open();
    });
    afterEach(async () => {
      await storage.close();
    });

    const hit = (key: string, start = T0, end = T1) =>
      storage.write((tx) => tx.rateLimits.hit(key, start, end));

    it('counts 40 concurrent hits on one window as 1..40, each count once', async () => {
      const counts = await Promise.all(Array.from({ length: 40 }, () => hit('k')));
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    });

    it('counts each key and each window apart', async () => {
      expect(await hit('a')).toBe(1);
      expect(await hit('a')).toBe(2);
      expect(await hit('b')).toBe(1);
      expect(await hit('a', T1, T2)).toBe(1);
    });

    it('deletes the windows that ended, keeps the live ones', async () => {
      await hit('old', T0, T1);
      await hit('live', T1, T2);
      expect(await storage.write((tx) => tx.rateLimits.deleteExpired(T1))).toBe(1);
      expect(await hit('old', T0, T1)).toBe(1);
      expect(await hit('live', T1, T2)).toBe(2);
    });

    it('rolls a hit back with its transaction', async () => {
      await expect(
        storage.write(async (tx) => {
          await tx.rateLimits.hit('k', T0, T1);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await hit('k')).toBe(1);
    });

    it('answers the tribunal queue and ledger sizes of an empty database with zeros', async () => {
      const figures = await storage.read(async (tx) => ({
        queue: await tx.operations.tribunalQueue(),
        ledgers: await tx.operations.ledgerSizes(),
      }));
      expect(figures).toEqual({ queue: { queued: 0, claimed: 0 }, ledgers: [] });
    });

    it('measures each ledger by its head: org_seq + 1 receipts, empty orgs left out', async () => {
      await storage.write(async (tx) => {
        for (const org of ['org_a', 'org_b', 'org_empty']) {
          await tx.orgs.insert({ id: org, name: org, created_at: T0 });
          await tx.projects.insert({
            id: `prj_${org}`,
            org_id: org,
            name: 'P',
            created_at: T0,
            created_by: 'usr_1',
          });
        }
        const receipts: Array<[string, number]> = [
          ['org_a', 0],
          ['org_a', 1],
          ['org_a', 2],
          ['org_b', 0],
        ];
        for (const [i, [org, seq]] of receipts.entries()) {
          await tx.runs.insert({
            id: `run_${i}`,
            org_id: org,
            project_id: `prj_${org}`,
            flight_sheet_id: 'fs_x',
            flight_sheet_slug: 'x',
            flight_sheet_version: '1.0.0',
            flight_sheet_sha256: 'a'.repeat(64),
            title: 'T',
            agent_profile: null,
            state: 'finalized',
            verdict: null,
            approval: null,
            created_at: T0,
            created_by: 'usr_1',
            updated_at: T0,
          });
          await tx.receipts.insert({
            receipt_id: `rcpt_${i}`,
            org_id: org,
            org_seq: seq,
            run_id: `run_${i}`,
            parent_hash: '0'.repeat(64),
            receipt_sha256: String(i).padStart(64, 'f'),
            payload_text: '{}',
            share_token: `tok_${i}`,
            created_at: T0,
          });
        }
      });
      const sizes = await storage.read((tx) => tx.operations.ledgerSizes());
      expect(sizes.sort((x, y) => x.org_id.localeCompare(y.org_id))).toEqual([
        { org_id: 'org_a', receipts: 3 },
        { org_id: 'org_b', receipts: 1 },
      ]);
    });
  });
}
