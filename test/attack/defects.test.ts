import { formatSkey } from '@runledger/verify/note';
import { networkInterfaces } from 'node:os';
import { loadConfig } from '@runledger/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, tokenOfLink, type SignedIn } from '../helpers/auth.js';
import { captureLog, type CapturedLog } from '../helpers/captured-log.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import {
  lease,
  newJob,
  newMember,
  newWorker,
  receipts,
  REGISTRATION_KEY,
} from '../helpers/router.js';
import { approvedRun, mint, newProject, sharePath, type MintedReceipt } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** A raw request: paths and bodies a well-behaved client would never send. */
async function raw(
  url: string,
  method: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; body: { detail?: unknown } | undefined; retryAfter: string | null }> {
  const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
  return {
    status: res.status,
    body: json ? (JSON.parse(text) as { detail?: unknown }) : undefined,
    retryAfter: res.headers.get('retry-after'),
  };
}

describe('the defects found by probing, each fixed', () => {
  let server: TestServer;
  let main: Api;
  let router: Api;
  let log: CapturedLog;
  let ada: SignedIn;
  let receipt: MintedReceipt;

  beforeAll(async () => {
    log = captureLog();
    server = await startTestServer(
      { WORKER_REGISTRATION_KEY: REGISTRATION_KEY, AUTH_VERIFY_LIMIT_PER_IP: '20' },
      { logger: log.logger },
    );
    ({ api: main } = await apiClient(server.url));
    ({ api: router } = await apiClient(server.routerUrl));
    ada = await signIn(main, 'ada@example.com');
    receipt = await mint(
      main,
      ada.token,
      await approvedRun(main, ada.token, await newProject(main, ada.token)),
    );
  });
  afterAll(() => server.close());

  it('answers 400 {detail} to a malformed percent-escape on both listeners, and logs no token', async () => {
    const share = sharePath(receipt.share_url);
    const mainPaths = [
      '/share/%ZZ',
      '/runs/%E0%A4%A',
      `${share}%`,
      `${share}%/pdf`,
      '/projects/%C0%80',
    ];
    const routerPaths = ['/jobs/%ZZ', '/members/%C0%80', '/datasets/%E0%A4%A'];
    for (const [base, paths] of [
      [server.url, mainPaths],
      [server.routerUrl, routerPaths],
    ] as const) {
      for (const path of paths) {
        const answer = await raw(`${base}${path}`, 'GET', { authorization: `Bearer ${ada.token}` });
        expect(answer.status, path).toBe(400);
        expect(answer.body?.detail, path).toMatch(/percent-escape/);
      }
    }
    expect(log.lines().length).toBeGreaterThan(0);
    expect(log.leaking([receipt.share_token, ada.token])).toEqual([]);
    expect(log.lines().filter((l) => l.includes('"level":50'))).toEqual([]);
  });

  it('refuses a live lease token presented by another worker with 409 and changes nothing', async () => {
    const memberId = await newMember(router, true, 'lease-owner@example.com');
    const { job_id: jobId } = await newJob(router, memberId);
    const one = await newWorker(router, 'gpu_a_96gb', 'one');
    const two = await newWorker(router, 'gpu_a_96gb', 'two');
    const held = await lease(router, two.worker_token);
    expect(held?.job.job_id).toBe(jobId);
    const before = await router('GET', `/jobs/${jobId}`);
    const receiptsBefore = (await receipts(server.dataDir)).length;
    for (const action of ['accept', 'fail'] as const) {
      const stolen = await router('POST', `/workers/jobs/${jobId}/${action}`, {
        token: one.worker_token,
        body: { lease_token: held!.lease_token, ...(action === 'fail' ? { error: 'x' } : {}) },
      });
      expect(stolen.status).toBe(409);
      expect(stolen.body.detail).toMatch(/another worker/);
    }
    expect((await router('GET', `/jobs/${jobId}`)).body).toEqual(before.body);
    expect((await receipts(server.dataDir)).length).toBe(receiptsBefore);
    const own = await router('POST', `/workers/jobs/${jobId}/accept`, {
      token: two.worker_token,
      body: { lease_token: held!.lease_token },
    });
    expect(own.status).toBe(200);
  });

  it('treats an application/json body of zero bytes as missing: 400, nothing runs', async () => {
    const memberId = await newMember(router, false, 'empty-body@example.com');
    const worker = await newWorker(router, 'gpu_a_96gb', 'empty');
    const receiptsBefore = (await receipts(server.dataDir)).length;
    const json = { 'content-type': 'application/json', 'content-length': '0' };
    const activate = await raw(
      `${server.routerUrl}/members/${memberId}/activate`,
      'POST',
      json,
      '',
    );
    expect(activate).toMatchObject({
      status: 400,
      body: { detail: expect.stringMatching(/required/) },
    });
    const leased = await raw(
      `${server.routerUrl}/workers/jobs/lease`,
      'POST',
      { ...json, authorization: `Bearer ${worker.worker_token}` },
      '',
    );
    expect(leased.status).toBe(400);
    const project = await raw(
      `${server.url}/projects`,
      'POST',
      { ...json, authorization: `Bearer ${ada.token}` },
      '',
    );
    expect(project.status).toBe(400);
    expect((await router('GET', `/members/${memberId}`)).body).toMatchObject({
      status: 'inactive',
    });
    expect((await receipts(server.dataDir)).length).toBe(receiptsBefore);
  });

  it('marks every operation without a body as x-runledger-body: none in /openapi.json', async () => {
    for (const base of [server.url, server.routerUrl]) {
      const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
        paths: Record<
          string,
          Record<string, { requestBody?: unknown; 'x-runledger-body'?: string }>
        >;
      };
      const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
      expect(operations.length).toBeGreaterThan(5);
      for (const operation of operations) {
        expect(operation['x-runledger-body']).toBe(operation.requestBody ? undefined : 'none');
      }
    }
  });

  it('takes query integers in plain digits only, for limit and after_seq alike', async () => {
    const auth = { authorization: `Bearer ${ada.token}` };
    for (const bad of ['1e2', '0x10', '5.0', '+5', '%2010', '10%20', '', '-1', '05', '1_0']) {
      for (const [base, path] of [
        [server.url, `/projects?limit=${bad}`],
        [server.url, `/ledger?limit=${bad}`],
        [server.url, `/ledger?after_seq=${bad}`],
        [server.routerUrl, `/datasets?limit=${bad}`],
      ] as const) {
        const answer = await raw(`${base}${path}`, 'GET', auth);
        expect(answer.status, `${path}`).toBe(400);
        expect(answer.body?.detail, path).toEqual(expect.any(String));
      }
    }
    expect((await raw(`${server.url}/projects?limit=5`, 'GET', auth)).status).toBe(200);
    expect((await raw(`${server.url}/ledger?after_seq=0`, 'GET', auth)).status).toBe(200);
  });

  it('throttles POST /auth/verify per address with 429 and Retry-After', async () => {
    let limited: Awaited<ReturnType<typeof raw>> | undefined;
    for (let i = 0; i < 40 && !limited; i += 1) {
      const answer = await raw(
        `${server.url}/auth/verify`,
        'POST',
        { 'content-type': 'application/json' },
        JSON.stringify({ token: `guess-${i}-${'x'.repeat(40)}` }),
      );
      if (answer.status === 429) limited = answer;
      else expect(answer.status).toBe(401);
    }
    expect(limited?.body?.detail).toEqual(expect.any(String));
    expect(Number(limited?.retryAfter)).toBeGreaterThan(0);
    // A real token is refused too while the window lasts, and a fresh one works once it has passed.
    const newLink = async () =>
      tokenOfLink(
        (
          await main<{ dev_link: string }>('POST', '/auth/request', {
            body: { email: 'late@example.com' },
          })
        ).body.dev_link,
      );
    expect((await main('POST', '/auth/verify', { body: { token: await newLink() } })).status).toBe(
      429,
    );
    server.clock.advance(601_000);
    expect((await main('POST', '/auth/verify', { body: { token: await newLink() } })).status).toBe(
      200,
    );
  });
});

describe('development mode and the network', () => {
  it('binds to loopback by default in development and to every interface in production', () => {
    expect(loadConfig({ DATA_DIR: '/tmp/runledger-config-host' }).host).toBe('127.0.0.1');
    expect(
      loadConfig({
        DATA_DIR: '/tmp/runledger-config-host',
        APP_ENV: 'production',
        JWT_SECRET: 'j'.repeat(32),
        SIGNING_KEY: formatSkey('runledger.test', new Uint8Array(32).fill(6)),
      }).host,
    ).toBe('0.0.0.0');
    expect(loadConfig({ DATA_DIR: '/tmp/runledger-config-host', HOST: '::' }).host).toBe('::');
  });

  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;

  it.skipIf(external === undefined)(
    'never hands a dev_link to a client outside this machine, even with a forged X-Forwarded-For',
    async () => {
      const server = await startTestServer({ HOST: external! });
      try {
        const remote = await raw(
          `${server.url}/auth/request`,
          'POST',
          { 'content-type': 'application/json', 'x-forwarded-for': '127.0.0.1' },
          JSON.stringify({ email: 'victim@example.com' }),
        );
        expect(remote).toMatchObject({ status: 200, body: { ok: true, sent: false } });
        expect(remote.body).not.toHaveProperty('dev_link');
      } finally {
        await server.close();
      }
    },
  );
});
