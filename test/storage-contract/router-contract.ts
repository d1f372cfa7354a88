import { fenceFor } from '@runledger/core/adapter';
import type { JobChange, JobRecord, Repositories, Storage } from '@runledger/core/ports';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const T0 = '2025-01-01T00:00:00.000Z';
const T1 = '2025-01-01T00:05:00.000Z';
const T2 = '2025-01-01T00:10:00.000Z';
const TOKEN = 'a'.repeat(64);

async function seed(tx: Repositories) {
  await tx.routerMembers.insert({
    member_id: 'mbr_1',
    email: 'a@example.com',
    name: 'A',
    created_at: T0,
    activated_at: T0,
    expires_at: T2,
  });
  await tx.workers.insert({
    worker_id: 'wkr_1',
    name: 'w',
    node_class: 'gpu_a_96gb',
    token_hash: 'f'.repeat(64),
    created_at: T0,
    last_seen_at: null,
  });
}

/** A queued job of member mbr_1 (its member row is the test's to insert), with `over` applied. */
export function job(id: string, over: Partial<JobRecord> = {}): JobRecord {
  return {
    job_id: id,
    member_id: 'mbr_1',
    type: 'eval',
    node_class: 'gpu_a_96gb',
    hours: 1,
    hourly_rate: '5.00',
    estimated_amount: '5.00',
    currency: 'USD',
    input: null,
    status: 'queued',
    attempt: 1,
    lease_epoch: 0,
    lease_token_hash: null,
    lease_expires_at: null,
    worker_id: null,
    progress: null,
    message: null,
    log_lines: 0,
    result: null,
    error: null,
    cost: null,
    billed_seconds: null,
    created_at: T0,
    accepted_at: null,
    finished_at: null,
    updated_at: T0,
    ...over,
  };
}

const leased = (id: string) =>
  job(id, {
    status: 'leased',
    lease_epoch: 1,
    lease_token_hash: TOKEN,
    lease_expires_at: T1,
    worker_id: 'wkr_1',
  });

const running = (r: JobRecord, at: string): JobChange => ({
  status: 'running',
  attempt: r.attempt,
  lease_epoch: r.lease_epoch,
  lease_token_hash: r.lease_token_hash,
  lease_expires_at: r.lease_expires_at,
  worker_id: r.worker_id,
  updated_at: at,
  accepted_at: at,
});

/** The router repositories' contract, run against every storage adapter. */
export function describeRouterStorageContract(name: string, open: () => Promise<Storage>): void {
  describe(`router storage contract: ${name}`, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await open();
      await storage.write(seed);
    });
    afterEach(async () => {
      await storage.close();
    });

    it('changes a job only when epoch, status, token, expiry and worker all match the fence', async () => {
      const accept = fenceFor('accept');
      const ok = { lease_epoch: 1, token_hash: TOKEN, now: T0, worker_id: 'wkr_1' };
      await storage.write(async (tx) => {
        await tx.jobs.insert(leased('job_1'));
        const refused = [
          { ...ok, lease_epoch: 2 },
          { ...ok, token_hash: 'b'.repeat(64) },
          { ...ok, now: T1 }, // the instant the lease expires
          { ...ok, worker_id: 'wkr_2' }, // the live token, presented by another worker
        ];
        for (const guard of refused) {
          expect(
            await tx.jobs.applyFenced('job_1', accept, guard, running(leased('job_1'), T0)),
          ).toBe(false);
        }
        expect(await tx.jobs.byId('job_1')).toEqual(leased('job_1'));
        expect(await tx.jobs.applyFenced('job_1', accept, ok, running(leased('job_1'), T0))).toBe(
          true,
        );
        expect(await tx.jobs.byId('job_1')).toMatchObject({ status: 'running', accepted_at: T0 });
        // The same call again: running is not a status accept allows.
        expect(await tx.jobs.applyFenced('job_1', accept, ok, running(leased('job_1'), T0))).toBe(
          false,
        );
      });
    });

    it('checks the worker for heartbeats, expiry for sweeps and the absence of a lease for the manual path', async () => {
      await storage.write(async (tx) => {
        await tx.jobs.insert(leased('job_1'));
        const renew = {
          ...running(leased('job_1'), T0),
          status: 'leased' as const,
          lease_expires_at: T2,
        };
        expect(
          await tx.jobs.applyFenced(
            'job_1',
            fenceFor('heartbeat'),
            { lease_epoch: 1, worker_id: 'wkr_2', now: T0 },
            renew,
          ),
        ).toBe(false);
        const expire: JobChange = {
          status: 'queued',
          attempt: 2,
          lease_epoch: 1,
          lease_token_hash: null,
          lease_expires_at: null,
          worker_id: null,
          updated_at: T0,
        };
        expect(
          await tx.jobs.applyFenced(
            'job_1',
            fenceFor('expire'),
            { lease_epoch: 1, now: T0 },
            expire,
          ),
        ).toBe(false);
        expect(await tx.jobs.expiredLeases(T0, 10)).toEqual([]);
        expect((await tx.jobs.expiredLeases(T1, 10)).map((j) => j.job_id)).toEqual(['job_1']);
        expect(
          await tx.jobs.applyFenced(
            'job_1',
            fenceFor('expire'),
            { lease_epoch: 1, now: T1 },
            expire,
          ),
        ).toBe(true);
        const complete = { ...expire, status: 'completed' as const };
        await tx.jobs.insert(leased('job_2'));
        const leased2 = await tx.jobs.byId('job_2');
        expect(
          await tx.jobs.applyFenced(
            'job_2',
            fenceFor('manual_complete'),
            { lease_epoch: 1 },
            { ...complete, lease_epoch: 1 },
          ),
        ).toBe(false);
        expect(await tx.jobs.byId('job_2')).toEqual(leased2);
      });
    });

    it('lists queued jobs of a class oldest first and counts jobs by status', async () => {
      await storage.write(async (tx) => {
        await tx.jobs.insert(job('job_b', { created_at: T1 }));
        await tx.jobs.insert(job('job_a', { created_at: T1 }));
        await tx.jobs.insert(job('job_c', { created_at: T0 }));
        await tx.jobs.insert(job('job_d', { node_class: 'gpu_b_32gb' }));
        await tx.jobs.insert(leased('job_e'));
        // PostgreSQL locks the job it picks (FOR UPDATE SKIP LOCKED) and so returns only the oldest.
        const oldestFirst = ['job_c', 'job_a', 'job_b'];
        expect((await tx.jobs.oldestQueued('gpu_a_96gb', 10)).map((j) => j.job_id)).toEqual(
          name === 'postgres' ? oldestFirst.slice(0, 1) : oldestFirst,
        );
        expect(await tx.jobs.countByStatus()).toMatchObject({ queued: 4, leased: 1, running: 0 });
        expect((await tx.jobs.liveLeasesOf('wkr_1', T0)).map((j) => j.job_id)).toEqual(['job_e']);
      });
    });

    it('keeps the first dataset grant and counts active members by expiry', async () => {
      await storage.write(async (tx) => {
        await tx.datasets.insert({
          dataset_id: 'dst_1',
          name: 'd',
          description: null,
          status: 'ready',
          error: null,
          created_at: T0,
          updated_at: T0,
        });
        const grant = {
          dataset_id: 'dst_1',
          member_id: 'mbr_1',
          receipt_id: 'rr_1',
          granted_at: T0,
        };
        expect(await tx.datasets.grantAccess(grant)).toBe(true);
        expect(
          await tx.datasets.grantAccess({ ...grant, receipt_id: 'rr_2', granted_at: T1 }),
        ).toBe(false);
        expect(await tx.datasets.accessOf('dst_1', 'mbr_1')).toEqual(grant);
        expect(await tx.routerMembers.counts(T0)).toEqual({ active: 1, inactive: 0 });
        expect(await tx.routerMembers.counts(T2)).toEqual({ active: 0, inactive: 1 });
      });
    });

    it('returns outbox rows in insertion order and deletes them by receipt id', async () => {
      const r = (n: number) => ({
        receipt_id: `rr_${n}`,
        type: 'membership' as const,
        created_at: T0,
        subject: { member_id: 'mbr_1' },
        amount: '100.00',
        currency: 'USD',
      });
      await storage.write(async (tx) => {
        for (const n of [3, 1, 2]) await tx.routerOutbox.insert(r(n));
        expect(await tx.routerOutbox.list(10)).toEqual([r(3), r(1), r(2)]);
        await tx.routerOutbox.delete(['rr_1']);
        expect((await tx.routerOutbox.list(10)).map((x) => x.receipt_id)).toEqual(['rr_3', 'rr_2']);
      });
      // Many ids at once, past one statement's 500, ids without a row among them.
      await storage.write(async (tx) => {
        for (const n of [4, 5, 6]) await tx.routerOutbox.insert(r(n));
        const ids = Array.from({ length: 1200 }, (_, i) => `rr_none_${i}`);
        ids.splice(499, 0, 'rr_3');
        ids.splice(500, 0, 'rr_5');
        ids.push('rr_6');
        await tx.routerOutbox.delete(ids);
        await tx.routerOutbox.delete([]);
        expect((await tx.routerOutbox.list(10)).map((x) => x.receipt_id)).toEqual(['rr_2', 'rr_4']);
      });
    });

    it('keeps a transaction ended with writes (endWith) when every statement succeeds, and nothing of it when any fails (property)', async () => {
      const r = (id: string) => ({
        receipt_id: id,
        type: 'membership' as const,
        created_at: T0,
        subject: { member_id: 'mbr_1' },
      });
      await storage.write((tx) => tx.routerOutbox.insert(r('rr_taken')));
      let round = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              // awaited by fn (a failure caught by fn still fails the transaction), or ending it
              how: fc.constantFrom('awaited', 'closing'),
              // a duplicate receipt id: the statement fails
              fails: fc.boolean(),
            }),
            { minLength: 1, maxLength: 6 },
          ),
          async (steps) => {
            round += 1;
            const ids = steps.map((step, i) => (step.fails ? 'rr_taken' : `rr_${round}_${i}`));
            const outcome = await storage
              .write(async (tx) => {
                const closing = steps.flatMap((step, i) => (step.how === 'closing' ? [i] : []));
                for (const [i, step] of steps.entries()) {
                  if (step.how === 'awaited') {
                    await tx.routerOutbox.insert(r(ids[i]!)).catch(() => undefined);
                  }
                }
                for (const i of closing) tx.endWith(tx.routerOutbox.insert(r(ids[i]!)));
                return 'done';
              })
              .then(
                (value) => ({ value }),
                (error: unknown) => ({ error }),
              );
            const rows = new Set(
              (await storage.read((tx) => tx.routerOutbox.list(10_000))).map((x) => x.receipt_id),
            );
            const mine = ids.filter((id) => id !== 'rr_taken');
            if (steps.some((step) => step.fails)) {
              expect(outcome).toHaveProperty('error');
              expect(mine.filter((id) => rows.has(id))).toEqual([]);
            } else {
              expect(outcome).toEqual({ value: 'done' });
              expect(mine.filter((id) => !rows.has(id))).toEqual([]);
            }
          },
        ),
        { numRuns: 40 },
      );
    });

    it('ends a transaction with a fenced job update (applyFencedEnding): a miss refuses everything with the caller’s own error, an earlier failed statement with its own, a match keeps it (property)', async () => {
      await storage.write(async (tx) => {
        await tx.jobs.insert(job('job_f'));
        await tx.routerOutbox.insert({
          receipt_id: 'rr_dup',
          type: 'membership',
          created_at: T0,
          subject: { member_id: 'mbr_1' },
        });
      });
      class Stale extends Error {}
      let round = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.boolean(), // the guard holds the job's current epoch, or a stale one
          fc.nat({ max: 3 }), // outbox rows the transaction writes (awaited) before the update
          fc.nat({ max: 3 }), // outbox rows ending the transaction after it
          fc.boolean(), // a statement sent before it, not awaited, fails (a duplicate outbox id)
          async (matches, before, after, earlier) => {
            round += 1;
            const r = (i: number) => ({
              receipt_id: `rf_${round}_${i}`,
              type: 'membership' as const,
              created_at: T0,
              subject: { member_id: 'mbr_1' },
            });
            const { lease_epoch: epoch } = (await storage.read((tx) => tx.jobs.byId('job_f')))!;
            const outcome = await storage
              .write(async (tx) => {
                for (let i = 0; i < before; i += 1) await tx.routerOutbox.insert(r(i));
                if (earlier) {
                  // Not awaited, its rejection caught: its failure still fails the transaction.
                  tx.routerOutbox.insert({ ...r(0), receipt_id: 'rr_dup' }).catch(() => undefined);
                }
                const change: JobChange = {
                  status: 'queued',
                  attempt: 1,
                  lease_epoch: epoch + 1,
                  lease_token_hash: null,
                  lease_expires_at: null,
                  worker_id: null,
                  updated_at: T1,
                };
                tx.endWith(
                  tx.jobs.applyFencedEnding(
                    'job_f',
                    fenceFor('start'),
                    { lease_epoch: matches ? epoch : epoch + 7 },
                    change,
                    () => new Stale('the job changed meanwhile'),
                  ),
                );
                for (let i = before; i < before + after; i += 1) {
                  tx.endWith(tx.routerOutbox.insert(r(i)));
                }
                return 'done';
              })
              .then(
                (value) => ({ value }),
                (error: unknown) => ({ error }),
              );
            const [now, rows] = await storage.read(
              async (tx) =>
                [
                  await tx.jobs.byId('job_f'),
                  (await tx.routerOutbox.list(10_000)).filter((x) =>
                    x.receipt_id.startsWith(`rf_${round}_`),
                  ),
                ] as const,
            );
            if (earlier) {
              // The statement that failed first names the failure, not the update behind it.
              expect(outcome).toHaveProperty('error');
              expect((outcome as { error: Error }).error.message).toMatch(/unique|duplicate key/i);
              expect(now?.lease_epoch).toBe(epoch);
              expect(rows).toEqual([]);
            } else if (matches) {
              expect(outcome).toEqual({ value: 'done' });
              expect(now?.lease_epoch).toBe(epoch + 1);
              expect(rows).toHaveLength(before + after);
            } else {
              expect(outcome).toEqual({ error: expect.any(Stale) });
              expect(now?.lease_epoch).toBe(epoch);
              expect(rows).toEqual([]);
            }
          },
        ),
        { numRuns: 30 },
      );
    });

    it('finds a worker by its token hash and rolls back a failed transaction', async () => {
      expect((await storage.write((tx) => tx.workers.byTokenHash('f'.repeat(64))))?.worker_id).toBe(
        'wkr_1',
      );
      await expect(
        storage.write(async (tx) => {
          await tx.jobs.insert(job('job_x'));
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await storage.write((tx) => tx.jobs.byId('job_x'))).toBeNull();
    });
  });
}
