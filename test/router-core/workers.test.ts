import { verifyRouterReceiptFiles } from '@runledger/verify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkerActor } from '@runledger/core';
import {
  activeMember,
  openRouterWorld,
  readReceipts,
  rejectsWith,
  type RouterCoreWorld,
  type RouterUseCases,
} from './setup.js';
import { engines } from '../helpers/postgres.js';

describe.each(engines)('%s', (engine) => {
  let w: RouterCoreWorld;
  beforeEach(async () => {
    w = await openRouterWorld({ leaseTtlSeconds: 600, jobMaxAttempts: 2 }, undefined, engine);
  });
  afterEach(async () => {
    await w.close();
  });

  async function worker(
    router: RouterUseCases,
    name = 'w1',
    nodeClass: 'gpu_a_96gb' | 'gpu_b_32gb' = 'gpu_a_96gb',
  ) {
    const reg = await router.registerWorker({ name, node_class: nodeClass });
    return { actor: await router.authenticateWorker(reg.worker_token), token: reg.worker_token };
  }

  async function queuedJob(router: RouterUseCases, member: string, hours = 2.5) {
    return (
      await router.createJob({
        member_id: member,
        type: 'inference',
        node_class: 'gpu_a_96gb',
        hours,
      })
    ).job_id;
  }

  async function jobRow(jobId: string) {
    return w.storage.write((tx) => tx.jobs.byId(jobId));
  }

  describe('the worker contract', () => {
    it('runs register → heartbeat → lease → accept → status → logs → artifacts → complete with receipts in order and the computed cost', async () => {
      const member = await activeMember(w.router);
      const jobId = await queuedJob(w.router, member);
      const { actor } = await worker(w.router);
      expect((await w.router.heartbeat(actor)).leases_renewed).toBe(0);
      const lease = await w.router.leaseJob(actor);
      expect(lease).not.toBeNull();
      expect(lease!.job).toMatchObject({
        job_id: jobId,
        status: 'leased',
        worker_id: actor.worker_id,
      });
      expect(lease!.lease_expires_at).toBe('2025-03-01T12:10:00.000Z');
      const t = lease!.lease_token;
      await w.router.acceptJob(actor, jobId, { lease_token: t });
      w.clock.advance(30_000);
      expect((await w.router.heartbeat(actor)).leases_renewed).toBe(1);
      await w.router.reportStatus(actor, jobId, { lease_token: t, progress: 50, message: 'half' });
      await w.router.appendLogs(actor, jobId, { lease_token: t, lines: ['a', 'b'] });
      await w.router.reportArtifacts(actor, jobId, {
        lease_token: t,
        artifacts: [{ name: 'out.bin', uri: 's3://b/out.bin', sha256: 'a'.repeat(64), size: 3 }],
      });
      // A long job stays leased only through heartbeats (TTL 600 s).
      for (let elapsed = 30_000; elapsed < 9_000_000; elapsed += 300_000) {
        w.clock.advance(Math.min(300_000, 9_000_000 - elapsed));
        await w.router.heartbeat(actor);
      }
      const done = await w.router.completeWorkerJob(actor, jobId, {
        lease_token: t,
        result: { ok: 1 },
      });
      expect(done).toMatchObject({
        status: 'completed',
        progress: 50,
        message: 'half',
        log_lines: 2,
        cost: '12.50',
        billed_seconds: 9000,
        result: { ok: 1 },
        lease_expires_at: null,
      });
      expect(done.artifacts).toHaveLength(1);
      const lines = await readReceipts(w.receiptsDir);
      expect(lines.map((l) => l.type)).toEqual([
        'membership',
        'compute_job',
        'worker_registered',
        'job_leased',
        'worker_job_accepted',
        'artifact_reported',
        'worker_job_completed',
      ]);
      expect(lines.at(-1)).toMatchObject({
        amount: '12.50',
        currency: 'USD',
        subject: { job_id: jobId, worker_id: actor.worker_id },
      });
      expect((await verifyRouterReceiptFiles(w.receiptsDir)).ok).toBe(true);
      expect(await w.router.getWorker(actor.worker_id)).toMatchObject({ live_leases: 0 });
    });

    it('answers an empty queue with null and only leases jobs of the worker’s class', async () => {
      const member = await activeMember(w.router);
      await queuedJob(w.router, member);
      const { actor } = await worker(w.router, 'b', 'gpu_b_32gb');
      expect(await w.router.leaseJob(actor)).toBeNull();
    });

    it('rejects an unknown worker token as unauthenticated', async () => {
      await rejectsWith(w.router.authenticateWorker('rlw_nope'), 'unauthenticated');
      await rejectsWith(w.router.authenticateWorker(''), 'unauthenticated');
    });

    it('rejects a wrong lease token with conflict and changes nothing', async () => {
      const member = await activeMember(w.router);
      const jobId = await queuedJob(w.router, member);
      const { actor } = await worker(w.router);
      await w.router.leaseJob(actor);
      const before = await jobRow(jobId);
      await rejectsWith(w.router.acceptJob(actor, jobId, { lease_token: 'rll_wrong' }), 'conflict');
      expect(await jobRow(jobId)).toEqual(before);
    });
  });

  describe('fencing and expiry', () => {
    it('requeues an expired lease with attempt + 1; the old holder’s stale token then gets conflict and changes nothing', async () => {
      const member = await activeMember(w.router);
      const jobId = await queuedJob(w.router, member);
      const a = await worker(w.router, 'a');
      const b = await worker(w.router, 'b');
      const first = (await w.router.leaseJob(a.actor))!;
      await w.router.acceptJob(a.actor, jobId, { lease_token: first.lease_token });
      w.clock.advance(599_999);
      expect(await w.router.sweepExpiredLeases()).toBe(0);
      w.clock.advance(1);
      // Expired but not yet swept: the holder can no longer act.
      await rejectsWith(
        w.router.reportStatus(a.actor, jobId, { lease_token: first.lease_token }),
        'conflict',
      );
      expect(await w.router.sweepExpiredLeases()).toBe(1);
      expect(await w.router.getJob(jobId)).toMatchObject({
        status: 'queued',
        attempt: 2,
        worker_id: null,
      });
      const second = (await w.router.leaseJob(b.actor))!;
      expect(second.job).toMatchObject({ job_id: jobId, attempt: 2, worker_id: b.actor.worker_id });
      const before = await jobRow(jobId);
      await rejectsWith(
        w.router.completeWorkerJob(a.actor, jobId, { lease_token: first.lease_token }),
        'conflict',
      );
      await rejectsWith(
        w.router.failWorkerJob(a.actor, jobId, { lease_token: first.lease_token, error: 'x' }),
        'conflict',
      );
      expect(await jobRow(jobId)).toEqual(before);
      const expired = (await readReceipts(w.receiptsDir)).filter((l) => l.type === 'lease_expired');
      expect(expired).toHaveLength(1);
      expect(expired[0]!.subject).toMatchObject({
        job_id: jobId,
        worker_id: a.actor.worker_id,
        attempt: 1,
        outcome: 'requeued',
      });
    });

    it('fails the job when its last attempt expires, with exactly one lease_expired receipt per expiry', async () => {
      const member = await activeMember(w.router);
      const jobId = await queuedJob(w.router, member);
      const a = await worker(w.router, 'a');
      for (let attempt = 1; attempt <= 2; attempt++) {
        expect((await w.router.leaseJob(a.actor))!.job.attempt).toBe(attempt);
        w.clock.advance(600_000);
        expect(await w.router.sweepExpiredLeases()).toBe(1);
        expect(await w.router.sweepExpiredLeases()).toBe(0);
      }
      expect(await w.router.getJob(jobId)).toMatchObject({ status: 'failed', attempt: 2 });
      expect(await w.router.leaseJob(a.actor)).toBeNull();
      const expired = (await readReceipts(w.receiptsDir)).filter((l) => l.type === 'lease_expired');
      expect(expired.map((l) => l.subject.outcome)).toEqual(['requeued', 'failed']);
    });

    it('renews live leases on heartbeat so a working holder is not swept', async () => {
      const member = await activeMember(w.router);
      const jobId = await queuedJob(w.router, member);
      const a = await worker(w.router, 'a');
      const lease = (await w.router.leaseJob(a.actor))!;
      w.clock.advance(500_000);
      await w.router.heartbeat(a.actor);
      w.clock.advance(500_000);
      expect(await w.router.sweepExpiredLeases()).toBe(0);
      await w.router.acceptJob(a.actor, jobId, { lease_token: lease.lease_token });
    });

    it('cancel ends the lease: the holder’s token gets conflict afterwards, and a terminal job cannot be canceled', async () => {
      const member = await activeMember(w.router);
      const jobId = await queuedJob(w.router, member);
      const a = await worker(w.router, 'a');
      const lease = (await w.router.leaseJob(a.actor))!;
      expect((await w.router.cancelJob(jobId)).status).toBe('canceled');
      await rejectsWith(
        w.router.acceptJob(a.actor, jobId, { lease_token: lease.lease_token }),
        'conflict',
      );
      await rejectsWith(w.router.cancelJob(jobId), 'conflict');
      expect((await jobRow(jobId))!.lease_token_hash).toBeNull();
    });

    it('runs the manual path: start then complete with a cost from start to now and a worker_job_completed receipt with worker_id null', async () => {
      const member = await activeMember(w.router);
      const jobId = await queuedJob(w.router, member);
      await rejectsWith(w.router.completeJob(jobId, {}), 'conflict');
      expect((await w.router.startJob(jobId)).status).toBe('running');
      w.clock.advance(3600_000);
      const done = await w.router.completeJob(jobId, { result: { n: 1 } });
      expect(done).toMatchObject({ status: 'completed', cost: '5.00', billed_seconds: 3600 });
      const last = (await readReceipts(w.receiptsDir)).at(-1)!;
      expect(last).toMatchObject({
        type: 'worker_job_completed',
        amount: '5.00',
        subject: { job_id: jobId, worker_id: null },
      });
    });

    it('gives 20 workers leasing concurrently from 10 queued jobs each job at most once', async () => {
      const member = await activeMember(w.router);
      const jobs = new Set<string>();
      for (let i = 0; i < 10; i++) jobs.add(await queuedJob(w.router, member));
      const workers: WorkerActor[] = [];
      for (let i = 0; i < 20; i++) workers.push((await worker(w.router, `w${i}`)).actor);
      const leases = await Promise.all(workers.map((a) => w.router.leaseJob(a)));
      const got = leases.filter((l) => l !== null).map((l) => l.job.job_id);
      expect(got).toHaveLength(10);
      expect(new Set(got)).toEqual(jobs);
      expect(new Set(leases.filter((l) => l !== null).map((l) => l.lease_token)).size).toBe(10);
      expect((await w.router.summary()).jobs.leased).toBe(10);
      expect(
        (await readReceipts(w.receiptsDir)).filter((l) => l.type === 'job_leased'),
      ).toHaveLength(10);
    });
  });
});
