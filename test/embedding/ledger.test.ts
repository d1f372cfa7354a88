import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkSignedCheckpoint,
  parseKeysDocument,
  verifyConsistency,
  verifyExportLines,
  verifyInclusion,
} from '@runledger/verify';
import { fromHex } from '@runledger/verify/hash';
import { leafHash, merkleRoot } from '@runledger/verify/merkle';
import { receiptLeaf } from '@runledger/verify/ledger';
import { LEDGER_LOG, treeRootAt, treeSize } from '@runledger/core/adapter';
import type { Actor, Runledger } from '@runledger/core';
import type { Receipt } from '@runledger/core/schemas';
import { approvedRun, openRunWorld, preparedRun, signIn, type RunWorld } from './world.js';
import { engines } from '../helpers/postgres.js';

describe.each(engines)('%s', (engine) => {
  async function collect(lines: AsyncIterable<string>): Promise<string[]> {
    const out: string[] = [];
    for await (const line of lines) out.push(line);
    return out;
  }

  describe('the ledger through the SDK', () => {
    let world: RunWorld;
    let rl: Runledger;
    let owner: Actor;
    let receipts: Receipt[];

    async function mint(n: number) {
      const project = await rl.projects.create(owner, { name: 'P' });
      for (let i = 0; i < n; i++) {
        world.clock.advance(1000);
        const run = await approvedRun(rl, owner, project.id);
        receipts.push((await rl.runs.mintReceipt(owner, run.id)).receipt);
      }
    }

    beforeEach(async () => {
      world = await openRunWorld(engine);
      rl = world.rl;
      owner = await signIn(rl, 'owner@example.com');
      receipts = [];
    });
    afterEach(async () => {
      await world.close();
    });

    it('grows by one entry per minted receipt, linked by parent_hash, and pages by after_seq', async () => {
      await mint(5);
      expect(receipts.map((r) => r.org_seq)).toEqual([0, 1, 2, 3, 4]);
      expect(receipts[0]!.parent_hash).toBe('0'.repeat(64));
      receipts.slice(1).forEach((r, i) => expect(r.parent_hash).toBe(receipts[i]!.receipt_sha256));
      const first = await rl.ledger.list(owner, { limit: 2 });
      expect(first.entries.map((e) => e.org_seq)).toEqual([0, 1]);
      expect(first.next).toBe('1');
      const rest = await rl.ledger.list(owner, { after_seq: 1, limit: 10 });
      expect(rest.entries.map((e) => e.org_seq)).toEqual([2, 3, 4]);
      expect(rest.next).toBeNull();
      expect(rest.entries[0]).toEqual({
        receipt_id: receipts[2]!.receipt_id,
        org_seq: 2,
        parent_hash: receipts[2]!.parent_hash,
        receipt_sha256: receipts[2]!.receipt_sha256,
        created_at: receipts[2]!.created_at,
      });
      const recent = await rl.ledger.recent(owner, { limit: 3 });
      expect(recent.receipts.map((r) => r.org_seq)).toEqual([4, 3, 2]);
      const older = await rl.ledger.recent(owner, { limit: 3, before_seq: Number(recent.next) });
      expect(older.receipts).toEqual([receipts[1], receipts[0]]);
      expect(older.next).toBeNull();
      const stranger = await signIn(rl, 'stranger@example.com');
      expect((await rl.ledger.list(stranger, {})).entries).toEqual([]);
      expect(await rl.ledger.verify(stranger)).toEqual({
        ok: true,
        receipts_checked: 0,
        errors: [],
      });
    });

    it('exports NDJSON that the offline verifier accepts, header first', async () => {
      await mint(3);
      const lines = await collect(rl.ledger.export(owner));
      expect(lines).toHaveLength(4);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        format: 'runledger.ledger/v1',
        org_id: owner.orgId,
        count: 3,
        head_sha256: receipts[2]!.receipt_sha256,
        receipt_prefix: 'rcpt',
      });
      const result = await verifyExportLines(lines, { strict: true, expectedOrgId: owner.orgId });
      expect(result).toMatchObject({ ok: true, receipts_checked: 3, errors: [] });
      const empty = await collect(rl.ledger.export(await signIn(rl, 'new@example.com')));
      expect(JSON.parse(empty[0]!)).toMatchObject({ count: 0, head_sha256: '0'.repeat(64) });
    });

    it.each([
      [
        'one payload byte',
        'UPDATE receipts SET payload_text = replace(payload_text, \'"v":1\', \'"v":2\') WHERE org_seq = 1',
        1,
        'hash_mismatch',
      ],
      [
        'one stored hash',
        'UPDATE receipts SET receipt_sha256 = ? WHERE org_seq = 1',
        1,
        'hash_mismatch',
      ],
      [
        'one parent_hash',
        'UPDATE receipts SET parent_hash = ? WHERE org_seq = 2',
        2,
        'field_mismatch',
      ],
    ])(
      'detects a changed %s, names the receipt, and shares it as unverified',
      async (_what, sql, seq, code) => {
        await mint(3);
        await world.tamper(sql, sql.includes('?') ? ['f'.repeat(64)] : []);
        const result = await rl.ledger.verify(owner);
        expect(result.ok).toBe(false);
        expect(result.receipts_checked).toBe(3);
        expect(result.errors).toContainEqual(
          expect.objectContaining({ receipt_id: receipts[seq]!.receipt_id, org_seq: seq, code }),
        );
        expect((await rl.share.get(receipts[seq]!.share_token)).verified).toBe(false);
        expect((await rl.share.get(receipts[0]!.share_token)).verified).toBe(true);
      },
    );

    it('detects a deleted row: the next receipt is named', async () => {
      await mint(4);
      await world.tamper('DELETE FROM receipts WHERE org_seq = 1');
      const result = await rl.ledger.verify(owner);
      expect(result.ok).toBe(false);
      expect(result.errors).toContainEqual(
        expect.objectContaining({ receipt_id: receipts[2]!.receipt_id, code: 'seq_gap' }),
      );
    });

    it('detects two rows whose org_seq were swapped', async () => {
      await mint(4);
      // Three steps, because UNIQUE(org_id, org_seq) forbids a direct swap.
      await world.tamper('UPDATE receipts SET org_seq = -1 WHERE org_seq = 1');
      await world.tamper('UPDATE receipts SET org_seq = 1 WHERE org_seq = 2');
      await world.tamper('UPDATE receipts SET org_seq = 2 WHERE org_seq = -1');
      const result = await rl.ledger.verify(owner);
      expect(result.ok).toBe(false);
      expect(result.errors.map((e) => e.receipt_id)).toContain(receipts[1]!.receipt_id);
      expect((await rl.share.get(receipts[1]!.share_token)).verified).toBe(false);
    });
  });

  describe('concurrent minting', () => {
    it('serves checkpoints and proofs that verify after any sequence of mints (property)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }),
          async (batches) => {
            const world = await openRunWorld(engine);
            try {
              const rl = world.rl;
              const owner = await signIn(rl, 'owner@example.com');
              const project = await rl.projects.create(owner, { name: 'P' });
              const keys = parseKeysDocument(rl.ledger.publishedKeys());
              const checkpoints: { size: number; root: Uint8Array }[] = [];
              const receipts: { receipt_id: string; receipt_sha256: string }[] = [];
              for (const n of batches) {
                const runs = [];
                for (let i = 0; i < n; i++) runs.push(await approvedRun(rl, owner, project.id));
                const minted = await Promise.all(runs.map((r) => rl.runs.mintReceipt(owner, r.id)));
                receipts.push(
                  ...minted.map((m) => m.receipt).sort((a, b) => a.org_seq - b.org_seq),
                );
                const served = await rl.ledger.checkpoint(owner);
                const checked = checkSignedCheckpoint(served.checkpoint, {
                  originSuffix: `/orgs/${owner.orgId}`,
                  size: receipts.length,
                  keys,
                });
                expect(checked.findings).toEqual([]);
                checkpoints.push({ size: served.tree_size, root: fromHex(served.root_hash)! });
              }
              const leaves = receipts.map((r) => leafHash(receiptLeaf(r.receipt_sha256)));
              for (const { size, root } of checkpoints) {
                expect(root).toEqual(merkleRoot(leaves.slice(0, size)));
                for (const [i, r] of receipts.slice(0, size).entries()) {
                  const proof = await rl.ledger.inclusionProof(owner, {
                    receipt_id: r.receipt_id,
                    tree_size: size,
                  });
                  const path = proof.hashes.map((h) => fromHex(h)!);
                  expect(verifyInclusion(i, size, leaves[i]!, path, root)).toBe(true);
                }
                for (const later of checkpoints.filter((c) => c.size >= size)) {
                  const proof = await rl.ledger.consistencyProof(owner, {
                    first: size,
                    second: later.size,
                  });
                  const path = proof.hashes.map((h) => fromHex(h)!);
                  expect(verifyConsistency(size, later.size, path, root, later.root)).toBe(true);
                }
              }
            } finally {
              await world.close();
            }
          },
        ),
        { numRuns: 6 },
      );
    });

    it('answers each ask of a batch for itself: approved, repeated, receipted, unapproved, unknown and foreign runs minted at once (property)', async () => {
      type Kind = 'approved' | 'receipted' | 'submitted' | 'foreign' | 'unknown';
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              kind: fc.constantFrom<Kind>(
                'approved',
                'receipted',
                'submitted',
                'foreign',
                'unknown',
              ),
              // Asks of the same run: a repeat in the same batch.
              times: fc.integer({ min: 1, max: 3 }),
            }),
            { minLength: 1, maxLength: 6 },
          ),
          fc.nat(),
          async (plan, shuffleSeed) => {
            const world = await openRunWorld(engine);
            try {
              const rl = world.rl;
              const owner = await signIn(rl, 'owner@example.com');
              const stranger = await signIn(rl, 'stranger@example.com');
              const project = await rl.projects.create(owner, { name: 'P' });
              const before: Receipt[] = [];
              const targets: { kind: Kind; runId: string; earlier?: Receipt }[] = [];
              for (const [i, { kind }] of plan.entries()) {
                if (kind === 'approved') {
                  targets.push({ kind, runId: (await approvedRun(rl, owner, project.id)).id });
                } else if (kind === 'receipted') {
                  const run = await approvedRun(rl, owner, project.id);
                  const earlier = (await rl.runs.mintReceipt(owner, run.id)).receipt;
                  before.push(earlier);
                  targets.push({ kind, runId: run.id, earlier });
                } else if (kind === 'submitted') {
                  targets.push({
                    kind,
                    runId: (await preparedRun(rl, owner, undefined, undefined, project.id)).id,
                  });
                } else if (kind === 'foreign') {
                  targets.push({ kind, runId: (await approvedRun(rl, stranger)).id });
                } else {
                  targets.push({ kind, runId: `run-missing-${i}` });
                }
              }
              const asks = plan.flatMap(({ times }, i) => Array.from({ length: times }, () => i));
              // A fixed shuffle of the asks, so repeats of a run are spread through the batch.
              let seed = shuffleSeed;
              for (let i = asks.length - 1; i > 0; i--) {
                seed = (seed * 1103515245 + 12345) % 2147483648;
                const j = seed % (i + 1);
                [asks[i], asks[j]] = [asks[j]!, asks[i]!];
              }
              const answers = await Promise.allSettled(
                asks.map((i) => rl.runs.mintReceipt(owner, targets[i]!.runId)),
              );

              const created: Receipt[] = [];
              targets.forEach((target, i) => {
                const mine = answers.filter((_, k) => asks[k] === i);
                if (target.kind === 'approved' || target.kind === 'receipted') {
                  const values = mine.map((a) => {
                    expect(a.status).toBe('fulfilled');
                    return (a as PromiseFulfilledResult<{ receipt: Receipt; created: boolean }>)
                      .value;
                  });
                  const ids = new Set(values.map((v) => v.receipt.receipt_id));
                  expect(ids.size).toBe(1);
                  const fresh = values.filter((v) => v.created);
                  if (target.kind === 'receipted') {
                    expect(fresh).toHaveLength(0);
                    expect(values[0]!.receipt).toEqual(target.earlier);
                  } else {
                    expect(fresh).toHaveLength(1);
                    created.push(fresh[0]!.receipt);
                  }
                } else {
                  const code = target.kind === 'submitted' ? 'conflict' : 'not_found';
                  for (const a of mine) {
                    expect(a.status).toBe('rejected');
                    expect((a as PromiseRejectedResult).reason).toMatchObject({ code });
                  }
                }
              });

              // The new receipts extend the chain without a gap, one per approved run, and the
              // ledger, its tree and the audit chain (one share link per new receipt) verify.
              const seqs = created.map((r) => r.org_seq).sort((a, b) => a - b);
              expect(seqs).toEqual(seqs.map((_, k) => before.length + k));
              const total = before.length + created.length;
              expect(await rl.ledger.verify(owner)).toEqual({
                ok: true,
                receipts_checked: total,
                errors: [],
              });
              const { entries } = await rl.ledger.list(owner, { limit: 200 });
              await world.storage.read(async (tx) => {
                expect(await treeRootAt(tx, owner.orgId, LEDGER_LOG, total)).toEqual(
                  merkleRoot(entries.map((e) => leafHash(receiptLeaf(e.receipt_sha256)))),
                );
              });
              const shares = await rl.audit.list(owner, { type: 'share_link.created', limit: 200 });
              expect(shares.entries).toHaveLength(total);
              const audit = await collect(rl.audit.export(owner));
              const checked = await verifyExportLines(audit, { strict: true });
              expect(checked.errors).toEqual([]);
              expect(checked.ok).toBe(true);
              // Nothing was minted into the other organization's chain.
              expect((await rl.ledger.list(stranger, { limit: 200 })).entries).toEqual([]);
            } finally {
              await world.close();
            }
          },
        ),
        { numRuns: engine === 'sqlite' ? 12 : 6 },
      );
    });

    it('never forks or skips: N approved runs minted at once give org_seq 0..N-1 and a verified chain', async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 8 }), async (n) => {
          const world = await openRunWorld(engine);
          try {
            const owner = await signIn(world.rl, 'owner@example.com');
            const project = await world.rl.projects.create(owner, { name: 'P' });
            const runs = [];
            for (let i = 0; i < n; i++) runs.push(await approvedRun(world.rl, owner, project.id));
            const minted = await Promise.all(
              [...runs, ...runs].map((run) => world.rl.runs.mintReceipt(owner, run.id)),
            );
            expect(minted.filter((m) => m.created)).toHaveLength(n);
            const seqs = minted.filter((m) => m.created).map((m) => m.receipt.org_seq);
            expect([...seqs].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
            expect(await world.rl.ledger.verify(owner)).toEqual({
              ok: true,
              receipts_checked: n,
              errors: [],
            });
            // The tree grew in the same transactions, under the chain lock: leaf i is org_seq i.
            const { entries } = await world.rl.ledger.list(owner, { limit: 200 });
            const expected = merkleRoot(
              entries.map((e) => leafHash(receiptLeaf(e.receipt_sha256))),
            );
            await world.storage.read(async (tx) => {
              expect(await treeSize(tx, owner.orgId, LEDGER_LOG)).toBe(n);
              expect(await treeRootAt(tx, owner.orgId, LEDGER_LOG, n)).toEqual(expected);
            });
          } finally {
            await world.close();
          }
        }),
        { numRuns: 12 },
      );
    });
  });
});
