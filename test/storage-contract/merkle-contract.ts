import {
  LEDGER_LOG,
  appendLeaves,
  consistencyProofAt,
  inclusionProofAt,
  treeRootAt,
  treeSize,
} from '@runledger/core/adapter';
import type { Storage } from '@runledger/core/ports';
import { leafHash, merkleRoot } from '@runledger/verify/merkle';
import { verifyConsistency, verifyInclusion } from '@runledger/verify';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const T0 = '2025-01-01T00:00:00.000Z';
const leaf = (log: string, i: number) => new TextEncoder().encode(`${log}:${i}`);
const leaves = (log: string, n: number) => Array.from({ length: n }, (_, i) => leaf(log, i));

/** The Merkle tree storage (migration 6) through the core tree functions, on a real engine. */
export function describeMerkleStorageContract(name: string, open: () => Promise<Storage>): void {
  describe(`${name}: merkle trees`, () => {
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

    it('grows by batches to the root computed from scratch, and serves proofs that verify', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 6 }),
          fc.nat(),
          fc.nat(),
          async (batches, pickA, pickB) => {
            const log = `t${Math.random().toString(36).slice(2)}`;
            const sizes: number[] = [];
            let total = 0;
            for (const n of batches) {
              const head = await storage.write((tx) =>
                appendLeaves(tx, 'org_1', log, leaves(log, total + n).slice(total)),
              );
              total += n;
              sizes.push(total);
              expect(head.size).toBe(total);
              expect(head.root).toEqual(merkleRoot(leaves(log, total).map(leafHash)));
            }
            const first = sizes[pickA % sizes.length] as number;
            const second = sizes[pickB % sizes.length] as number;
            const [lo, hi] = first <= second ? [first, second] : [second, first];
            await storage.read(async (tx) => {
              expect(await treeSize(tx, 'org_1', log)).toBe(total);
              const rootLo = await treeRootAt(tx, 'org_1', log, lo);
              const rootHi = await treeRootAt(tx, 'org_1', log, hi);
              expect(rootLo).toEqual(merkleRoot(leaves(log, lo).map(leafHash)));
              const index = pickA % hi;
              const path = await inclusionProofAt(tx, 'org_1', log, index, hi);
              expect(path.length).toBeLessThanOrEqual(Math.ceil(Math.log2(hi)));
              expect(verifyInclusion(index, hi, leafHash(leaf(log, index)), path, rootHi)).toBe(
                true,
              );
              const proof = await consistencyProofAt(tx, 'org_1', log, lo, hi);
              expect(verifyConsistency(lo, hi, proof, rootLo, rootHi)).toBe(true);
            });
          },
        ),
        { numRuns: 12 },
      );
    });

    it('keeps each (organization, log) its own tree', async () => {
      await storage.write(async (tx) => {
        await appendLeaves(tx, 'org_1', LEDGER_LOG, leaves('a', 5));
        await appendLeaves(tx, 'org_1', 'audit', leaves('b', 3));
        await appendLeaves(tx, 'org_2', LEDGER_LOG, leaves('c', 2));
      });
      await storage.read(async (tx) => {
        expect(await treeSize(tx, 'org_1', LEDGER_LOG)).toBe(5);
        expect(await treeSize(tx, 'org_1', 'audit')).toBe(3);
        expect(await treeSize(tx, 'org_2', LEDGER_LOG)).toBe(2);
        expect(await treeSize(tx, 'org_2', 'audit')).toBe(0);
        expect(await treeRootAt(tx, 'org_1', 'audit', 3)).toEqual(
          merkleRoot(leaves('b', 3).map(leafHash)),
        );
      });
    });

    it('refuses a node written twice (two appends that did not hold the lock cannot fork the tree)', async () => {
      await storage.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, leaves('a', 1)));
      await expect(
        storage.write((tx) =>
          tx.merkle.insert('org_1', LEDGER_LOG, [{ level: 0, index: 0, hash: new Uint8Array(32) }]),
        ),
      ).rejects.toThrow();
      const root = await storage.read((tx) => treeRootAt(tx, 'org_1', LEDGER_LOG, 1));
      expect(root).toEqual(merkleRoot([leafHash(leaf('a', 0))]));
    });

    it('refuses an append at a size the tree does not have, leaving the tree as it was', async () => {
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 12 }),
          fc.integer({ min: 0, max: 16 }),
          async (stored, claimed) => {
            fc.pre(stored !== claimed);
            const org = 'org_2';
            runs += 1;
            const log = `claims_${runs}`;
            if (stored > 0)
              await storage.write((tx) => appendLeaves(tx, org, log, leaves(log, stored)));
            await expect(
              storage.write((tx) => appendLeaves(tx, org, log, [leaf(log, stored)], claimed)),
            ).rejects.toThrow();
            expect(await storage.read((tx) => treeSize(tx, org, log))).toBe(stored);
            if (stored > 0) {
              const root = await storage.read((tx) => treeRootAt(tx, org, log, stored));
              expect(root).toEqual(merkleRoot(leaves(log, stored).map(leafHash)));
            }
          },
        ),
        { numRuns: 25 },
      );
    });

    it('appends at the size the caller gives when the tree has it', async () => {
      await storage.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, leaves('a', 5)));
      const head = await storage.write((tx) =>
        appendLeaves(tx, 'org_1', LEDGER_LOG, [leaf('a', 5)], 5),
      );
      expect(head).toEqual({ size: 6, root: merkleRoot(leaves('a', 6).map(leafHash)) });
    });

    it('refuses proofs for sizes out of range with a RangeError', async () => {
      await storage.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, leaves('a', 4)));
      await storage.read(async (tx) => {
        await expect(inclusionProofAt(tx, 'org_1', LEDGER_LOG, 4, 4)).rejects.toThrow(RangeError);
        await expect(consistencyProofAt(tx, 'org_1', LEDGER_LOG, 0, 4)).rejects.toThrow(RangeError);
        await expect(consistencyProofAt(tx, 'org_1', LEDGER_LOG, 3, 2)).rejects.toThrow(RangeError);
      });
    });
  });
}
