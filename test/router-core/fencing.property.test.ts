import fc from 'fast-check';
import { hashSecret } from '@runledger/core/adapter';
import type { WorkerActor } from '@runledger/core';
import type { JobRecord } from '@runledger/core/ports';
import type { RouterJob } from '@runledger/core/schemas';
import { describe, expect, it } from 'vitest';
import { activeMember, openRouterWorld, readReceipts, type RouterCoreWorld } from './setup.js';
import { engines } from '../helpers/postgres.js';

describe.each(engines)('%s', (engine) => {
  const TTL = 600;
  const WORKERS = 3;
  const JOBS = 2;
  const TOKEN_OPS = ['accept', 'status', 'log', 'artifact', 'complete', 'fail'] as const;

  type Command =
    | { k: 'lease'; w: number }
    | { k: 'token'; op: (typeof TOKEN_OPS)[number]; w: number; pick: number; otherJob: boolean }
    | { k: 'heartbeat'; w: number }
    | { k: 'advance'; seconds: number }
    | { k: 'sweep' }
    | { k: 'cancel'; j: number };

  const worker = fc.integer({ min: 0, max: WORKERS - 1 });
  const command: fc.Arbitrary<Command> = fc.oneof(
    { weight: 3, arbitrary: worker.map((w) => ({ k: 'lease' as const, w })) },
    {
      weight: 8,
      arbitrary: fc.record({
        k: fc.constant('token' as const),
        op: fc.constantFrom(...TOKEN_OPS),
        w: worker,
        pick: fc.nat(),
        otherJob: fc.boolean(),
      }),
    },
    { weight: 2, arbitrary: worker.map((w) => ({ k: 'heartbeat' as const, w })) },
    {
      weight: 3,
      arbitrary: fc
        .integer({ min: 1, max: 900 })
        .map((seconds) => ({ k: 'advance' as const, seconds })),
    },
    { weight: 2, arbitrary: fc.constant({ k: 'sweep' as const }) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 0, max: JOBS - 1 }).map((j) => ({ k: 'cancel' as const, j })),
    },
  );

  interface Issued {
    token: string;
    worker: number;
    jobId: string;
  }

  /** What the test itself knows about each job's newest lease, independent of the code under test. */
  interface Held {
    newest: Issued | null;
    ended: boolean;
    expiresAt: number;
  }

  async function rows(w: RouterCoreWorld, ids: string[]): Promise<(JobRecord | null)[]> {
    return w.storage.write(async (tx) => Promise.all(ids.map((id) => tx.jobs.byId(id))));
  }

  function call(
    w: RouterCoreWorld,
    actor: WorkerActor,
    op: (typeof TOKEN_OPS)[number],
    jobId: string,
    token: string,
  ): Promise<RouterJob> {
    const r = w.router;
    switch (op) {
      case 'accept':
        return r.acceptJob(actor, jobId, { lease_token: token });
      case 'status':
        return r.reportStatus(actor, jobId, { lease_token: token, progress: 1 });
      case 'log':
        return r.appendLogs(actor, jobId, { lease_token: token, lines: ['x'] });
      case 'artifact':
        return r.reportArtifacts(actor, jobId, {
          lease_token: token,
          artifacts: [{ name: 'a', uri: 'u' }],
        });
      case 'complete':
        return r.completeWorkerJob(actor, jobId, { lease_token: token });
      case 'fail':
        return r.failWorkerJob(actor, jobId, { lease_token: token, error: 'e' });
    }
  }

  describe('fenced leases over real storage under random interleavings', () => {
    it('never lets two workers hold one job and never lets a stale token change a job', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 40 }), async (commands) => {
          const w = await openRouterWorld(
            { leaseTtlSeconds: TTL, jobMaxAttempts: 3 },
            undefined,
            engine,
          );
          try {
            const member = await activeMember(w.router);
            const jobIds: string[] = [];
            for (let j = 0; j < JOBS; j++) {
              jobIds.push(
                (
                  await w.router.createJob({
                    member_id: member,
                    type: 'batch',
                    node_class: 'gpu_a_96gb',
                    hours: 1,
                  })
                ).job_id,
              );
            }
            const actors: WorkerActor[] = [];
            for (let i = 0; i < WORKERS; i++) {
              const reg = await w.router.registerWorker({
                name: `w${i}`,
                node_class: 'gpu_a_96gb',
              });
              actors.push(await w.router.authenticateWorker(reg.worker_token));
            }
            const issued: Issued[] = [];
            const held = new Map<string, Held>(
              jobIds.map((id) => [id, { newest: null, ended: true, expiresAt: 0 }]),
            );
            const live = (h: Held, now: number) =>
              h.newest !== null && !h.ended && now < h.expiresAt;
            let swept = 0;

            for (const c of commands) {
              const now = w.clock.now().getTime();
              if (c.k === 'advance') {
                w.clock.advance(c.seconds * 1000);
                continue;
              }
              const before = await rows(w, jobIds);
              let ok = true;
              try {
                switch (c.k) {
                  case 'lease': {
                    const lease = await w.router.leaseJob(actors[c.w]!);
                    if (lease !== null) {
                      const h = held.get(lease.job.job_id)!;
                      // Only a job nobody holds can be leased.
                      expect(live(h, now)).toBe(false);
                      const entry = {
                        token: lease.lease_token,
                        worker: c.w,
                        jobId: lease.job.job_id,
                      };
                      issued.push(entry);
                      held.set(entry.jobId, {
                        newest: entry,
                        ended: false,
                        expiresAt: now + TTL * 1000,
                      });
                    }
                    break;
                  }
                  case 'token': {
                    const mine = issued.filter((t) => t.worker === c.w);
                    const t = mine.length > 0 ? mine[c.pick % mine.length]! : null;
                    const token = t?.token ?? 'rll_never-issued';
                    const jobId =
                      t === null
                        ? jobIds[0]!
                        : c.otherJob
                          ? jobIds.find((id) => id !== t.jobId)!
                          : t.jobId;
                    await call(w, actors[c.w]!, c.op, jobId, token);
                    // Success means: the newest lease of that very job, still live, presented by its holder.
                    const h = held.get(jobId)!;
                    expect(t).not.toBeNull();
                    expect(h.newest?.token).toBe(token);
                    expect(live(h, now)).toBe(true);
                    if (c.op === 'complete' || c.op === 'fail') h.ended = true;
                    break;
                  }
                  case 'heartbeat': {
                    const { leases_renewed } = await w.router.heartbeat(actors[c.w]!);
                    const mine = [...held.values()].filter(
                      (h) => h.newest?.worker === c.w && live(h, now),
                    );
                    expect(leases_renewed).toBe(mine.length);
                    for (const h of mine) h.expiresAt = now + TTL * 1000;
                    break;
                  }
                  case 'sweep': {
                    const n = await w.router.sweepExpiredLeases();
                    const due = [...held.values()].filter(
                      (h) => h.newest !== null && !h.ended && now >= h.expiresAt,
                    );
                    expect(n).toBe(due.length);
                    for (const h of due) h.ended = true;
                    swept += n;
                    break;
                  }
                  case 'cancel': {
                    await w.router.cancelJob(jobIds[c.j]!);
                    held.get(jobIds[c.j]!)!.ended = true;
                    break;
                  }
                }
              } catch (error) {
                if ((error as { code?: string }).code !== 'conflict') throw error;
                ok = false;
              }
              const after = await rows(w, jobIds);
              // A refused call changes nothing at all.
              if (!ok) expect(after).toEqual(before);
              // The stored lease is always the newest issued one, held by the worker it was issued to.
              for (const [i, row] of after.entries()) {
                const h = held.get(jobIds[i]!)!;
                if (row!.lease_token_hash !== null) {
                  expect(h.ended).toBe(false);
                  expect(row!.lease_token_hash).toBe(hashSecret(h.newest!.token));
                  expect(row!.worker_id).toBe(actors[h.newest!.worker]!.worker_id);
                }
                expect(row!.attempt).toBeLessThanOrEqual(3);
              }
            }
            const expired = (await readReceipts(w.receiptsDir)).filter(
              (l) => l.type === 'lease_expired',
            );
            expect(expired).toHaveLength(swept);
          } finally {
            await w.close();
          }
        }),
        { numRuns: 60 },
      );
    }, 120_000);
  });
});
