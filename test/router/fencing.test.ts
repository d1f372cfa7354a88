import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  lease,
  newJob,
  newMember,
  newWorker,
  receipts,
  startRouterWorld,
  type RouterWorld,
} from '../helpers/router.js';

const PAST_TTL_MS = 601_000;

describe('fenced leases through the router listener', () => {
  let world: RouterWorld;
  let memberId: string;
  beforeEach(async () => {
    world = await startRouterWorld();
    memberId = await newMember(world.api);
  });
  afterEach(() => world.close());

  const countOf = async (type: string) =>
    (await receipts(world.server.dataDir)).filter((r) => r.type === type).length;

  it('requeues an expired lease with attempt + 1, and the old worker’s stale complete gets 409 and changes nothing', async () => {
    const { api } = world;
    const { job_id: jobId } = await newJob(api, memberId);
    const oldWorker = await newWorker(api, 'gpu_a_96gb', 'old');
    const first = await lease(api, oldWorker.worker_token);
    await api('POST', `/workers/jobs/${jobId}/accept`, {
      token: oldWorker.worker_token,
      body: { lease_token: first!.lease_token },
    });

    world.server.clock.advance(PAST_TTL_MS);
    const lateBeat = await api('POST', '/workers/heartbeat', {
      token: oldWorker.worker_token,
      body: {},
    });
    expect(lateBeat.body).toMatchObject({ leases_renewed: 0 });
    expect(await world.server.sweepLeases()).toBe(1);
    expect(await world.server.sweepLeases()).toBe(0);
    const requeued = await api('GET', `/jobs/${jobId}`);
    expect(requeued.body).toMatchObject({ status: 'queued', attempt: 2, worker_id: null });
    expect(await countOf('lease_expired')).toBe(1);

    const newWorkerReg = await newWorker(api, 'gpu_a_96gb', 'new');
    const second = await lease(api, newWorkerReg.worker_token);
    expect(second!.job).toMatchObject({ job_id: jobId, attempt: 2 });
    const before = await api('GET', `/jobs/${jobId}`);
    const receiptsBefore = (await receipts(world.server.dataDir)).length;

    for (const [path, body] of [
      ['complete', { lease_token: first!.lease_token }],
      ['accept', { lease_token: first!.lease_token }],
      ['status', { lease_token: first!.lease_token, progress: 99 }],
      ['fail', { lease_token: first!.lease_token, error: 'stale' }],
    ] as const) {
      const stale = await api('POST', `/workers/jobs/${jobId}/${path}`, {
        token: oldWorker.worker_token,
        body,
      });
      expect([path, stale.status]).toEqual([path, 409]);
    }
    expect((await api('GET', `/jobs/${jobId}`)).body).toEqual(before.body);
    expect(await receipts(world.server.dataDir)).toHaveLength(receiptsBefore);

    const accepted = await api('POST', `/workers/jobs/${jobId}/accept`, {
      token: newWorkerReg.worker_token,
      body: { lease_token: second!.lease_token },
    });
    expect(accepted.body).toMatchObject({ status: 'running', worker_id: newWorkerReg.worker_id });
  });

  it('fails the job once the maximum attempts have expired, with one lease_expired receipt per expiry', async () => {
    const { api } = world;
    const { job_id: jobId } = await newJob(api, memberId);
    const worker = await newWorker(api);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const leased = await lease(api, worker.worker_token);
      expect(leased!.job).toMatchObject({ job_id: jobId, attempt });
      world.server.clock.advance(PAST_TTL_MS);
      expect(await world.server.sweepLeases()).toBe(1);
    }
    expect((await api('GET', `/jobs/${jobId}`)).body).toMatchObject({
      status: 'failed',
      attempt: 3,
    });
    expect(await lease(api, worker.worker_token)).toBeNull();
    expect(await countOf('lease_expired')).toBe(3);
    expect(await world.server.sweepLeases()).toBe(0);
  });

  it('keeps a lease alive past its first expiry while heartbeats renew it', async () => {
    const { api } = world;
    const { job_id: jobId } = await newJob(api, memberId);
    const worker = await newWorker(api);
    const leased = await lease(api, worker.worker_token);
    for (let i = 0; i < 3; i++) {
      world.server.clock.advance(300_000);
      await api('POST', '/workers/heartbeat', { token: worker.worker_token, body: {} });
    }
    expect(await world.server.sweepLeases()).toBe(0);
    const accepted = await api('POST', `/workers/jobs/${jobId}/accept`, {
      token: worker.worker_token,
      body: { lease_token: leased!.lease_token },
    });
    expect(accepted.status).toBe(200);
  });

  it('invalidates the lease when the job is canceled', async () => {
    const { api } = world;
    const { job_id: jobId } = await newJob(api, memberId);
    const worker = await newWorker(api);
    const leased = await lease(api, worker.worker_token);
    await api('POST', `/workers/jobs/${jobId}/accept`, {
      token: worker.worker_token,
      body: { lease_token: leased!.lease_token },
    });
    const canceled = await api('POST', `/jobs/${jobId}/cancel`, { body: {} });
    expect(canceled.body).toMatchObject({ status: 'canceled', lease_expires_at: null });
    const complete = await api('POST', `/workers/jobs/${jobId}/complete`, {
      token: worker.worker_token,
      body: { lease_token: leased!.lease_token },
    });
    expect(complete.status).toBe(409);
    expect((await api('GET', `/jobs/${jobId}`)).body).toMatchObject({ status: 'canceled' });
    expect(await countOf('worker_job_completed')).toBe(0);
    world.server.clock.advance(PAST_TTL_MS);
    expect(await world.server.sweepLeases()).toBe(0);
  });

  it('never gives the same job to two of 20 workers leasing concurrently from 10 queued jobs', async () => {
    const { api } = world;
    const jobIds = new Set<string>();
    for (let i = 0; i < 10; i++) jobIds.add((await newJob(api, memberId)).job_id);
    const workers = [];
    for (let i = 0; i < 20; i++) workers.push(await newWorker(api, 'gpu_a_96gb', `w${i}`));

    const results = await Promise.all(workers.map((w) => lease(api, w.worker_token)));
    const leasedIds = results.flatMap((r) => (r ? [r.job.job_id] : []));
    expect(leasedIds).toHaveLength(10);
    expect(new Set(leasedIds)).toEqual(jobIds);
    expect(results.filter((r) => r === null)).toHaveLength(10);
    expect(await countOf('job_leased')).toBe(10);
  });
});

describe('the sweeper interval', () => {
  it('requeues an expired lease without anyone calling the sweep', async () => {
    const world = await startRouterWorld({ ROUTER_SWEEP_SECONDS: '1' });
    try {
      const memberId = await newMember(world.api);
      const { job_id: jobId } = await newJob(world.api, memberId);
      const worker = await newWorker(world.api);
      await lease(world.api, worker.worker_token);
      world.server.clock.advance(PAST_TTL_MS);
      let status = '';
      // Polls for the effect (not a timing assertion): the interval runs about once a second.
      for (let i = 0; i < 100 && status !== 'queued'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await world.api<{ status: string }>('GET', `/jobs/${jobId}`)).body.status;
      }
      expect(status).toBe('queued');
    } finally {
      await world.close();
    }
  });
});
