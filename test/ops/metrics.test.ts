import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { scrape, valueOf, type Sample } from '../helpers/prometheus.js';
import { lease, newJob, newMember, newWorker, REGISTRATION_KEY } from '../helpers/router.js';
import { approvedRun, mint, newProject, sharePath, AGENT_REPORT } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** GET /metrics of a real server: the series exist, move when the action happens, and label routes by template. */
describe('metrics', () => {
  let server: TestServer;
  let main: Api;
  let router: Api;
  let owner: SignedIn;
  let metricsUrl: string;

  beforeAll(async () => {
    // External runner: a grading stays queued, so the tribunal queue depth is observable.
    server = await startTestServer({
      WORKER_REGISTRATION_KEY: REGISTRATION_KEY,
      TRIBUNAL_RUNNER: 'external',
      RUNNER_TOKEN: 'runner-token-0123456789abcdef0123456789',
    });
    metricsUrl = server.metricsUrl!;
    ({ api: main } = await apiClient(server.url));
    ({ api: router } = await apiClient(server.routerUrl));
    owner = await signIn(main, 'metrics-owner@example.com');
  });
  afterAll(() => server.close());

  it('serves the text format on its own loopback listener, not on the APIs', async () => {
    expect(new URL(metricsUrl).hostname).toBe('127.0.0.1');
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${server.routerUrl}/metrics`)).status).toBe(404);
    expect((await fetch(`${metricsUrl}/other`)).status).toBe(404);
    const samples = await scrape(metricsUrl);
    const names = new Set(samples.map((s) => s.name));
    for (const name of [
      'runledger_http_requests_total',
      'runledger_http_request_duration_seconds_bucket',
      'runledger_storage_transaction_seconds_count',
      'runledger_storage_group_commit_batch_size_count',
      'runledger_storage_group_commit_seconds_bucket',
      'runledger_storage_log_sync_seconds_bucket',
      'runledger_event_loop_busy_seconds_total',
      'runledger_tribunal_tasks',
      'runledger_ledgers',
      'runledger_ledger_receipts_all',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(names, name).toContain(name);
    }
  });

  it("counts the event loop's busy seconds: growing with work, never faster than the clock", async () => {
    const busy = async () =>
      valueOf(await scrape(metricsUrl), 'runledger_event_loop_busy_seconds_total');
    // The clock starts before the first scrape and stops after the second, so both readings of
    // the counter fall inside the interval it measures.
    const started = performance.now();
    const first = await busy();
    await newProject(main, owner.token);
    const second = await busy();
    const wallSeconds = (performance.now() - started) / 1000;
    expect(second).toBeGreaterThan(first);
    expect(second - first).toBeLessThanOrEqual(wallSeconds);
  });

  it('counts requests by route template and status, never by raw path', async () => {
    const project = await newProject(main, owner.token);
    const run = await approvedRun(main, owner.token, project);
    const before = await scrape(metricsUrl);
    const receipt = await mint(main, owner.token, run);
    const shared = await fetch(`${server.url}${sharePath(receipt.share_url)}`, {
      headers: { accept: 'application/json' },
    });
    expect(shared.status).toBe(200);
    await fetch(`${server.url}/no/such/${receipt.share_token}`);
    const after = await scrape(metricsUrl);

    const count = (samples: Sample[], labels: Record<string, string>) =>
      valueOf(samples, 'runledger_http_requests_total', { api: 'main', ...labels });
    expect(
      count(after, { method: 'POST', route: '/runs/{run_id}/receipt', status: '201' }) -
        count(before, { method: 'POST', route: '/runs/{run_id}/receipt', status: '201' }),
    ).toBe(1);
    expect(
      count(after, { method: 'GET', route: '/share/{share_token}', status: '200' }) -
        count(before, { method: 'GET', route: '/share/{share_token}', status: '200' }),
    ).toBe(1);
    expect(count(after, { route: '(unmatched)', status: '404' })).toBeGreaterThan(
      count(before, { route: '(unmatched)', status: '404' }),
    );
    const routes = after
      .filter((s) => s.name === 'runledger_http_requests_total')
      .map((s) => s.labels['route']!);
    for (const route of routes) expect(route).toMatch(/^(\/[a-z0-9_.{}-]*)+$|^\(unmatched\)$/);
    expect(JSON.stringify(after)).not.toContain(receipt.share_token);
    expect(JSON.stringify(after)).not.toContain(run);

    // The mint: counted once, and the org's ledger is among the largest with its one receipt.
    expect(
      valueOf(after, 'runledger_receipts_minted_total') -
        valueOf(before, 'runledger_receipts_minted_total'),
    ).toBe(1);
    expect(valueOf(after, 'runledger_ledger_receipts_all')).toBe(
      valueOf(before, 'runledger_ledger_receipts_all') + 1,
    );
    const me = await main<{ org_id: string }>('GET', '/auth/me', { token: owner.token });
    expect(valueOf(after, 'runledger_ledger_receipts', { org_id: me.body.org_id })).toBe(1);
    expect(
      valueOf(after, 'runledger_storage_transaction_seconds_count', { kind: 'write' }),
    ).toBeGreaterThan(
      valueOf(before, 'runledger_storage_transaction_seconds_count', { kind: 'write' }),
    );
    expect(valueOf(after, 'runledger_storage_group_commit_batch_size_count')).toBeGreaterThan(
      valueOf(before, 'runledger_storage_group_commit_batch_size_count'),
    );
  });

  it('counts lease outcomes: leased, refused stale token, expired', async () => {
    const outcome = (samples: Sample[], o: string) =>
      valueOf(samples, 'runledger_lease_outcomes_total', { outcome: o });
    const before = await scrape(metricsUrl);
    const member = await newMember(router, true, 'lease-metrics@example.com');
    await newJob(router, member);
    const worker = await newWorker(router);
    const leased = await lease(router, worker.worker_token);
    expect(leased).not.toBeNull();
    const token = leased!.lease_token;
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const stale = await router('POST', `/workers/jobs/${leased!.job.job_id}/accept`, {
      token: worker.worker_token,
      body: { lease_token: wrong },
    });
    expect(stale.status).toBe(409);
    server.clock.advance(3_600_000);
    expect(await server.sweepLeases()).toBe(1);
    const after = await scrape(metricsUrl);
    expect(outcome(after, 'leased') - outcome(before, 'leased')).toBe(1);
    expect(outcome(after, 'stale_token') - outcome(before, 'stale_token')).toBe(1);
    expect(outcome(after, 'expired') - outcome(before, 'expired')).toBe(1);
  });

  it('reports the tribunal queue depth', async () => {
    const before = await scrape(metricsUrl);
    const queued = await main('POST', '/v1/tribunal/grade', {
      token: owner.token,
      body: { flight_sheet: 'agent-task-report', submission: AGENT_REPORT, evidence: [] },
    });
    expect(queued.status).toBe(202);
    const after = await scrape(metricsUrl);
    expect(
      valueOf(after, 'runledger_tribunal_tasks', { status: 'queued' }) -
        valueOf(before, 'runledger_tribunal_tasks', { status: 'queued' }),
    ).toBe(1);
  });
});
