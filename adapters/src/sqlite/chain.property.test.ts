import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENESIS_PARENT } from '@runledger/verify';
import { type RunRecord, type Storage, type WriteTransaction } from '@runledger/core/ports';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStorage } from './storage.js';

const T0 = '2025-01-01T00:00:00.000Z';

function run(id: string, orgId: string): RunRecord {
  return {
    id,
    org_id: orgId,
    project_id: `prj_${orgId}`,
    flight_sheet_id: 'fs',
    flight_sheet_slug: 'fs',
    flight_sheet_version: '1.0.0',
    flight_sheet_sha256: '0'.repeat(64),
    title: id,
    agent_profile: null,
    state: 'receipted',
    verdict: null,
    approval: null,
    created_at: T0,
    created_by: 'usr_1',
    updated_at: T0,
  };
}

/** A mint as the core does it: lock the org, read the head, append after it (and maybe throw after writing). */
async function mint(tx: WriteTransaction, orgId: string, id: string, fail: boolean) {
  await tx.lock(`receipts:${orgId}`);
  const head = await tx.receipts.head(orgId);
  const parent = head?.receipt_sha256 ?? GENESIS_PARENT;
  const seq = head === null ? 0 : head.org_seq + 1;
  await tx.runs.insert(run(id, orgId));
  await tx.receipts.insert({
    receipt_id: `rcpt_${id}`,
    org_id: orgId,
    org_seq: seq,
    run_id: id,
    parent_hash: parent,
    receipt_sha256: createHash('sha256').update(`${parent}:${id}`).digest('hex'),
    payload_text: '{}',
    share_token: `share_${id}`,
    created_at: T0,
  });
  if (fail) throw new Error(`injected failure in ${id}`);
}

/** Every receipt of the org in seq order, checked gapless and linked; returns their receipt ids. */
async function chainOf(storage: Storage, orgId: string): Promise<string[]> {
  const entries = await storage.read((tx) => tx.receipts.entries(orgId, -1, 10_000));
  let parent = GENESIS_PARENT;
  entries.forEach((entry, i) => {
    expect(entry.org_seq).toBe(i);
    expect(entry.parent_hash).toBe(parent);
    parent = entry.receipt_sha256;
  });
  return entries.map((e) => e.receipt_id);
}

describe('group commit keeps chains whole (property, real SQLite file)', () => {
  let dir: string;
  let file: string;
  let storage: Storage;
  const acknowledged: Array<{ org: string; receipt: string }> = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-chain-prop-'));
    file = join(dir, 'db.sqlite');
    storage = await openSqliteStorage({ file });
  });
  afterAll(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('random interleavings of mints across orgs, some failing inside a batch: gapless, forkless, nothing acknowledged lost', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            org: fc.integer({ min: 0, max: 2 }),
            fail: fc.boolean(),
            // Ops with a new wave number are submitted after a turn of the event loop, so batches split.
            wave: fc.boolean(),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        async (ops) => {
          round += 1;
          const orgs = [0, 1, 2].map((k) => `org_${round}_${k}`);
          await storage.write(async (tx) => {
            for (const id of orgs) {
              await tx.orgs.insert({ id, name: id, created_at: T0 });
              await tx.projects.insert({
                id: `prj_${id}`,
                org_id: id,
                name: id,
                created_at: T0,
                created_by: 'usr_1',
              });
            }
          });
          const pending: Array<Promise<unknown>> = [];
          for (const [i, op] of ops.entries()) {
            if (op.wave) await new Promise((resolve) => setImmediate(resolve));
            const org = orgs[op.org]!;
            const id = `run_${round}_${i}`;
            const minted = storage.write((tx) => mint(tx, org, id, op.fail));
            // Settled below; a batch can fail a mint before the next wave is submitted.
            minted.catch(() => undefined);
            pending.push(minted);
          }
          const settled = await Promise.allSettled(pending);
          settled.forEach((s, i) => {
            // A transaction fails exactly when it was told to; the others are unaffected.
            expect(s.status).toBe(ops[i]!.fail ? 'rejected' : 'fulfilled');
            if (s.status === 'fulfilled')
              acknowledged.push({ org: orgs[ops[i]!.org]!, receipt: `rcpt_run_${round}_${i}` });
          });
          for (const [k, org] of orgs.entries()) {
            const chain = await chainOf(storage, org);
            const want = ops
              .map((op, i) => ({ op, id: `rcpt_run_${round}_${i}` }))
              .filter(({ op }) => op.org === k && !op.fail)
              .map(({ id }) => id);
            // Mints of one org chain in arrival order, failed ones leave no trace.
            expect(chain).toEqual(want);
          }
        },
      ),
      { numRuns: 40 },
    );
    // Reopened from the file, every acknowledged receipt is there and every chain still links.
    await storage.close();
    storage = await openSqliteStorage({ file });
    const byOrg = new Map<string, Set<string>>();
    for (const { org } of acknowledged) {
      if (!byOrg.has(org)) byOrg.set(org, new Set(await chainOf(storage, org)));
    }
    for (const { org, receipt } of acknowledged) expect(byOrg.get(org)!.has(receipt)).toBe(true);
  });
});
