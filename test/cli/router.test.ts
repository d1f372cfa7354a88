import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { REGISTRATION_KEY, receipts } from '../helpers/router.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildCli, CLI, json, runNode, VERIFY, type Ran } from './run-cli.js';

describe('the router commands and `router worker --once`', () => {
  let server: TestServer;
  const cli = (...args: string[]): Promise<Ran> =>
    runNode(CLI, args, { RUNLEDGER_ROUTER_URL: server.routerUrl });

  beforeAll(async () => {
    await buildCli();
    server = await startTestServer({ WORKER_REGISTRATION_KEY: REGISTRATION_KEY });
  }, 180_000);
  afterAll(() => server?.close());

  it('creates and activates a member, grants a dataset, quotes, and a worker completes a queued job', async () => {
    const member = json<{ member_id: string; status: string }>(
      await cli(
        'router',
        'members',
        'create',
        '--email',
        'ada@example.com',
        '--name',
        'Ada',
        '--json',
      ),
    );
    expect(member.status).toBe('inactive');
    const active = json<{ status: string; amount: string }>(
      await cli('router', 'members', 'activate', member.member_id, '--json'),
    );
    expect(active).toMatchObject({ status: 'active', amount: '100.00' });

    const dataset = json<{ dataset_id: string }>(
      await cli('router', 'datasets', 'create', '--name', 'corpus', '--json'),
    );
    const grant = json<{ member_id: string }>(
      await cli(
        'router',
        'datasets',
        'grant',
        dataset.dataset_id,
        '--member',
        member.member_id,
        '--json',
      ),
    );
    expect(grant.member_id).toBe(member.member_id);
    const listed = await cli('router', 'datasets', 'list');
    expect(listed.stdout).toMatch(new RegExp(`${dataset.dataset_id}\\s+ready\\s+corpus`));

    const quote = json<{ amount: string }>(
      await cli(
        'router',
        'quotes',
        'create',
        '--member',
        member.member_id,
        '--node-class',
        'gpu_b_32gb',
        '--hours',
        '1.5',
        '--json',
      ),
    );
    expect(quote.amount).toBe('3.00');

    const job = json<{ job_id: string; status: string }>(
      await cli(
        'router',
        'jobs',
        'create',
        '--member',
        member.member_id,
        '--node-class',
        'gpu_a_96gb',
        '--hours',
        '1',
        '--input',
        '{"prompt":"hello"}',
        '--json',
      ),
    );
    expect(job.status).toBe('queued');

    const worked = await runNode(CLI, ['router', 'worker', '--once', '--name', 'w-cli', '--json'], {
      RUNLEDGER_ROUTER_URL: server.routerUrl,
      WORKER_REGISTRATION_KEY: REGISTRATION_KEY,
    });
    expect(worked.code, worked.stderr).toBe(0);
    expect(worked.stderr).toContain('registered worker');
    const done = json<{ job_id: string; status: string; result: unknown }>(worked);
    expect(done).toMatchObject({
      job_id: job.job_id,
      status: 'completed',
      result: { worker: 'w-cli', input: { prompt: 'hello' } },
    });
    const shown = json<{ status: string; log_lines: number; progress: number }>(
      await cli('router', 'jobs', 'show', job.job_id, '--json'),
    );
    expect(shown).toMatchObject({ status: 'completed', log_lines: 1, progress: 100 });

    // Nothing left: --once reports that and still exits 0. The key comes on stdin this time.
    const idle = await runNode(
      CLI,
      ['router', 'worker', '--once', '--registration-key', '-'],
      { RUNLEDGER_ROUTER_URL: server.routerUrl },
      `${REGISTRATION_KEY}\n`,
    );
    expect(idle.code, idle.stderr).toBe(0);
    expect(idle.stderr).toContain('no queued job');
    expect(idle.stderr).not.toContain('warning');

    const types = (await receipts(server.dataDir)).map((r) => r.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'membership',
        'dataset_access',
        'compute_quote',
        'job_leased',
        'worker_job_accepted',
        'worker_job_completed',
      ]),
    );
    const verified = await runNode(VERIFY, ['receipts', join(server.dataDir, 'receipts')]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  }, 120_000);

  it('reports a refused registration key with the server detail and exit 1', async () => {
    const refused = await runNode(CLI, ['router', 'worker', '--once'], {
      RUNLEDGER_ROUTER_URL: server.routerUrl,
      WORKER_REGISTRATION_KEY: 'wrong',
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^runledger: .*registration.* \(HTTP 401\)\n$/i);
  });

  it('still takes a literal --registration-key, with a warning that ps shows it', async () => {
    const flagged = await runNode(CLI, ['router', 'worker', '--once', '--registration-key', 'k'], {
      RUNLEDGER_ROUTER_URL: server.routerUrl,
    });
    expect(flagged.code).toBe(1);
    const [warning, refusal] = flagged.stderr.split('\n');
    expect(warning).toMatch(
      /^runledger: warning: --registration-key with a value is visible in the process list/,
    );
    expect(refusal).toMatch(/registration.* \(HTTP 401\)$/i);
  });
});
