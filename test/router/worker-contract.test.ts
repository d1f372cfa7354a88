import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/openapi.js';
import {
  REGISTRATION_KEY,
  lease,
  newJob,
  newMember,
  newWorker,
  receipts,
  startRouterWorld,
  type RouterWorld,
} from '../helpers/router.js';
import { startTestServer } from '../helpers/server.js';

const MINUTE = 60_000;

describe('worker contract v0.2 over the router listener', () => {
  let world: RouterWorld;
  beforeEach(async () => {
    world = await startRouterWorld();
  });
  afterEach(() => world.close());

  it('runs register → heartbeat → lease → accept → status → logs → artifacts → complete with receipts in order and the server’s cost', async () => {
    const { api } = world;
    const memberId = await newMember(api);
    const { job_id: jobId } = await newJob(api, memberId, { hours: 2, input: { prompt: 'hi' } });
    const worker = await newWorker(api);
    expect(worker.worker_token.length).toBeGreaterThanOrEqual(43);

    const beat = await api('POST', '/workers/heartbeat', { token: worker.worker_token, body: {} });
    expect(beat.body).toMatchObject({ worker_id: worker.worker_id, leases_renewed: 0 });

    const leased = await lease(api, worker.worker_token);
    expect(leased).toMatchObject({
      job: { job_id: jobId, status: 'leased', attempt: 1 },
      lease_expires_at: '2030-01-01T12:10:00.000Z',
    });
    const token = leased!.lease_token;
    const path = `/workers/jobs/${jobId}`;
    const w = { token: worker.worker_token };

    const accepted = await api('POST', `${path}/accept`, { ...w, body: { lease_token: token } });
    expect(accepted.body).toMatchObject({ status: 'running', worker_id: worker.worker_id });

    world.server.clock.advance(5 * MINUTE);
    const renewed = await api('POST', '/workers/heartbeat', { ...w, body: {} });
    expect(renewed.body).toMatchObject({ leases_renewed: 1 });
    expect((await api('GET', `/jobs/${jobId}`)).body).toMatchObject({
      lease_expires_at: '2030-01-01T12:15:00.000Z',
    });

    const status = await api('POST', `${path}/status`, {
      ...w,
      body: { lease_token: token, progress: 40, message: 'halfway' },
    });
    expect(status.body).toMatchObject({ progress: 40, message: 'halfway' });
    const logs = await api('POST', `${path}/logs`, {
      ...w,
      body: { lease_token: token, lines: ['step 1', 'step 2'] },
    });
    expect(logs.body).toMatchObject({ log_lines: 2 });
    const artifacts = await api('POST', `${path}/artifacts`, {
      ...w,
      body: {
        lease_token: token,
        artifacts: [
          { name: 'out.json', uri: 'file:///tmp/out.json', sha256: 'a'.repeat(64), size: 12 },
        ],
      },
    });
    expect(artifacts.body).toMatchObject({
      artifacts: [{ name: 'out.json', uri: 'file:///tmp/out.json', size: 12 }],
    });

    // 90 minutes after accept (5 already passed), heartbeating to keep the lease: 1.5 h × 5.00 = 7.50.
    for (let i = 0; i < 17; i++) {
      world.server.clock.advance(5 * MINUTE);
      const kept = await api('POST', '/workers/heartbeat', { ...w, body: {} });
      expect(kept.body).toMatchObject({ leases_renewed: 1 });
    }
    const done = await api('POST', `${path}/complete`, {
      ...w,
      body: { lease_token: token, result: { tokens: 42 } },
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      status: 'completed',
      cost: '7.50',
      billed_seconds: 5400,
      estimated_amount: '10.00',
      result: { tokens: 42 },
    });

    const lines = await receipts(world.server.dataDir);
    expect(lines.map((l) => l.type)).toEqual([
      'membership',
      'compute_job',
      'worker_registered',
      'job_leased',
      'worker_job_accepted',
      'artifact_reported',
      'worker_job_completed',
    ]);
    expect(lines.map((l) => l.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(lines[1]).toMatchObject({ amount: '10.00', currency: 'USD' });
    expect(lines[6]).toMatchObject({ amount: '7.50', currency: 'USD' });
    expect(lines[6]!.subject).toMatchObject({ job_id: jobId, worker_id: worker.worker_id });

    const again = await api('POST', `${path}/complete`, { ...w, body: { lease_token: token } });
    expect(again.status).toBe(409);
    const admin = await api('GET', `/admin/workers/${worker.worker_id}`);
    expect(admin.body).toMatchObject({ worker_id: worker.worker_id, live_leases: 0 });
    expect(admin.text).not.toMatch(/token|hash/);
  });

  it('answers 204 when nothing of the worker’s class is queued', async () => {
    const memberId = await newMember(world.api);
    await newJob(world.api, memberId, { node_class: 'gpu_b_32gb' });
    const worker = await newWorker(world.api, 'gpu_a_96gb');
    expect(await lease(world.api, worker.worker_token)).toBeNull();
  });

  it('fails a job with the worker’s error and a worker_job_failed receipt', async () => {
    const memberId = await newMember(world.api);
    const { job_id: jobId } = await newJob(world.api, memberId);
    const worker = await newWorker(world.api);
    const leased = await lease(world.api, worker.worker_token);
    const failed = await world.api('POST', `/workers/jobs/${jobId}/fail`, {
      token: worker.worker_token,
      body: { lease_token: leased!.lease_token, error: 'out of memory' },
    });
    expect(failed.body).toMatchObject({ status: 'failed', error: 'out of memory' });
    expect((await receipts(world.server.dataDir)).at(-1)).toMatchObject({
      type: 'worker_job_failed',
    });
  });

  it('runs a job by hand: start, then complete with the cost and a receipt naming no worker', async () => {
    const memberId = await newMember(world.api);
    const { job_id: jobId } = await newJob(world.api, memberId, { type: 'fine_tune' });
    const started = await world.api('POST', `/jobs/${jobId}/start`, { body: {} });
    expect(started.body).toMatchObject({ status: 'running' });
    world.server.clock.advance(30 * MINUTE);
    const done = await world.api('POST', `/jobs/${jobId}/complete`, { body: {} });
    expect(done.body).toMatchObject({ status: 'completed', cost: '2.50' });
    const lines = await receipts(world.server.dataDir);
    expect(lines.map((l) => l.type)).toEqual([
      'membership',
      'fine_tune_job',
      'worker_job_completed',
    ]);
    expect(lines[2]).toMatchObject({ amount: '2.50', subject: { job_id: jobId, worker_id: null } });
    expect((await world.api('POST', `/jobs/${jobId}/start`, { body: {} })).status).toBe(409);
    expect((await world.api('POST', `/jobs/${jobId}/cancel`, { body: {} })).status).toBe(409);
  });

  it('needs the worker token on /workers/* (401) and the registration key on register (401)', async () => {
    const worker = await newWorker(world.api);
    const none = await world.api('POST', '/workers/heartbeat', { body: {} });
    const wrong = await world.api('POST', '/workers/jobs/lease', {
      token: 'x'.repeat(43),
      body: {},
    });
    const apiKeyHeader = await world.api('POST', '/workers/heartbeat', {
      headers: { 'x-api-key': worker.worker_token },
      body: {},
    });
    expect([none.status, wrong.status, apiKeyHeader.status]).toEqual([401, 401, 401]);
    const badKey = await world.api('POST', '/workers/register', {
      body: { name: 'w', node_class: 'gpu_a_96gb' },
      headers: { 'x-registration-key': `${REGISTRATION_KEY}x` },
    });
    const noKey = await world.api('POST', '/workers/register', {
      body: { name: 'w', node_class: 'gpu_a_96gb' },
    });
    expect([badKey.status, noKey.status]).toEqual([401, 401]);
    const listed = await world.api<{ workers: unknown[] }>('GET', '/admin/workers');
    expect(listed.body.workers).toHaveLength(1);
    expect(listed.text).not.toContain(worker.worker_token);
  });
});

describe('worker registration without WORKER_REGISTRATION_KEY', () => {
  it('answers 503 even with a key header, and registers nobody', async () => {
    const server = await startTestServer();
    try {
      const { api } = await apiClient(server.routerUrl);
      const answer = await api('POST', '/workers/register', {
        body: { name: 'w', node_class: 'gpu_a_96gb' },
        headers: { 'x-registration-key': 'anything' },
      });
      expect(answer.status).toBe(503);
      // The credential is checked before the body: an unconfigured route says so whatever is sent.
      const junk = await api('POST', '/workers/register', { body: { nonsense: true } });
      expect(junk.status).toBe(503);
      expect((await api('GET', '/admin/summary')).body).toMatchObject({ workers: 0 });
    } finally {
      await server.close();
    }
  });
});
