import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import {
  checkSignedCheckpoint,
  parseKeysDocument,
  verifyConsistency,
  verifyInclusion,
} from '@runledger/verify';
import { formatSkey } from '@runledger/verify/note';
import { fromHex } from '@runledger/verify/hash';
import { leafHash, merkleRoot } from '@runledger/verify/merkle';
import { receiptLeaf } from '@runledger/verify/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenOfLink, signIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { freshSchemaUrl, postgresSkipped } from '../helpers/postgres.js';
import { spawnServer, type ServerProcess } from '../helpers/processes.js';
import { newJob, newMember, newWorker, REGISTRATION_KEY, type Leased } from '../helpers/router.js';
import { approvedRun, finalizedRun, newProject } from '../helpers/runs.js';

const SECRET = 'whsec_0123456789abcdef0123456789abcdef';

/**
 * Same-run races through two real server processes on one PostgreSQL database: each race has
 * exactly one effect, every answer is a status the route declares (the clients check every answer
 * against /openapi.json), and nothing answers 5xx. See docs/storage.md, "Concurrency contract".
 */
describe.skipIf(postgresSkipped)('two server processes on one PostgreSQL database', () => {
  const servers: ServerProcess[] = [];
  let main: Api[];
  let router: Api[];

  beforeAll(async () => {
    const env = {
      DATABASE_URL: await freshSchemaUrl(),
      WORKER_REGISTRATION_KEY: REGISTRATION_KEY,
      PAYMENT_WEBHOOK_SECRET: SECRET,
      // Instances of one deployment share the signing secret: a token works on either.
      JWT_SECRET: 'jwt-secret-shared-by-both-instances-0123456789',
      // ... and the checkpoint key (a dev instance would otherwise generate its own).
      SIGNING_KEY: formatSkey('runledger.test', new Uint8Array(32).fill(21)),
    };
    // One after the other, so the second finds the schema migrated.
    servers.push(await spawnServer(env));
    servers.push(await spawnServer(env));
    main = await Promise.all(servers.map(async (s) => (await apiClient(s.url)).api));
    router = await Promise.all(servers.map(async (s) => (await apiClient(s.routerUrl)).api));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  /** `n` calls spread over both servers, all started at once. */
  const both = <T>(apis: Api[], n: number, call: (api: Api, i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: n }, (_, i) => call(apis[i % apis.length]!, i)));

  /** A new owner (signed in on the first server) with four runs in one project, made by `make`. */
  async function ownerWithFourRuns(
    email: string,
    make: (api: Api, token: string, project: string) => Promise<string>,
  ) {
    const owner = await signIn(main[0]!, email);
    const project = await newProject(main[0]!, owner.token);
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => make(main[0]!, owner.token, project)),
    );
    return { owner, runs };
  }

  it('mints one receipt per run: one 201, the same receipt with 200 for every other caller', async () => {
    const { owner, runs } = await ownerWithFourRuns('minter@example.com', approvedRun);
    const answers = await both(main, 80, (api, i) =>
      api<{ receipt_id: string; org_seq: number }>('POST', `/runs/${runs[i % 4]}/receipt`, {
        token: owner.token,
      }),
    );
    for (const [r, run] of runs.entries()) {
      const mine = answers.filter((_, i) => i % 4 === r);
      expect(mine.map((a) => a.status).sort()).toEqual([...Array(19).fill(200), 201]);
      expect(new Set(mine.map((a) => a.body.receipt_id)).size, run).toBe(1);
    }
    // Four receipts on one gapless, forkless chain.
    expect(answers.map((a) => a.body.org_seq).sort()).toContain(3);
    const verified = await main[1]!<{ ok: boolean; receipts_checked: number }>(
      'GET',
      '/ledger/verify',
      {
        token: owner.token,
      },
    );
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ ok: true, receipts_checked: 4 });
  });

  it('decides a run once: of concurrent approvals and rejections over both servers one gets 200, every other 409, and the run keeps that decision', async () => {
    const { owner, runs } = await ownerWithFourRuns('decider@example.com', finalizedRun);
    const answers = await both(main, 80, (api, i) =>
      api<{ decision: string; note: string }>('POST', `/runs/${runs[i % 4]}/approve`, {
        token: owner.token,
        body: { decision: i % 8 < 4 ? 'approved' : 'rejected', note: `caller ${i}` },
      }),
    );
    for (const [r, runId] of runs.entries()) {
      const mine = answers.filter((_, i) => i % 4 === r);
      expect(mine.map((a) => a.status).sort()).toEqual([200, ...Array(19).fill(409)]);
      const winner = mine.find((a) => a.status === 200)!.body;
      const run = await main[1]!<{ run: { state: string }; approval: unknown }>(
        'GET',
        `/runs/${runId}`,
        { token: owner.token },
      );
      expect(run.body.run.state).toBe(winner.decision);
      expect(run.body.approval).toMatchObject({ decision: winner.decision, note: winner.note });
    }
  });

  it('grows one Merkle tree from both instances: every checkpoint and proof either serves verifies, and they agree', async () => {
    const owner = await signIn(main[0]!, 'tree@example.com');
    const project = await newProject(main[0]!, owner.token);
    const runs = await Promise.all(
      Array.from({ length: 10 }, () => approvedRun(main[0]!, owner.token, project)),
    );
    const minted = await both(main, runs.length, (api, i) =>
      api<{ receipt_id: string; org_seq: number; receipt_sha256: string }>(
        'POST',
        `/runs/${runs[i]}/receipt`,
        { token: owner.token },
      ),
    );
    expect(minted.map((m) => m.status)).toEqual(Array(10).fill(201));
    const bySeq = minted.map((m) => m.body).sort((a, b) => a.org_seq - b.org_seq);
    const leaves = bySeq.map((r) => leafHash(receiptLeaf(r.receipt_sha256)));
    const rootOf = (n: number) => merkleRoot(leaves.slice(0, n));
    const get = <T>(api: Api, path: string) => api<T>('GET', path, { token: owner.token });
    const hashes = (h: string[]) => h.map((x) => fromHex(x) as Uint8Array);

    const served = await Promise.all(
      main.map(async (api) => {
        const keys = parseKeysDocument((await api('GET', '/.well-known/runledger-keys.json')).body);
        const { body } = await get<{ checkpoint: string; tree_size: number; root_hash: string }>(
          api,
          '/ledger/checkpoint',
        );
        const checked = checkSignedCheckpoint(body.checkpoint, {
          originSuffix: `/orgs/${owner.orgId}`,
          size: 10,
          keys,
        });
        expect(checked.findings).toEqual([]);
        return { keys, body };
      }),
    );
    expect(served[0]!.keys).toEqual(served[1]!.keys);
    expect(served[0]!.body.root_hash).toBe(served[1]!.body.root_hash);
    expect(fromHex(served[0]!.body.root_hash)).toEqual(rootOf(10));

    for (const [s, api] of main.entries()) {
      for (const r of bySeq) {
        const size = 1 + ((r.org_seq + s * 3) % (10 - r.org_seq)) + r.org_seq;
        const { status, body } = await get<{ hashes: string[] }>(
          api,
          `/ledger/proof/inclusion?receipt_id=${r.receipt_id}&tree_size=${size}`,
        );
        expect(status).toBe(200);
        expect(
          verifyInclusion(r.org_seq, size, leaves[r.org_seq]!, hashes(body.hashes), rootOf(size)),
        ).toBe(true);
      }
      for (const [first, second] of [
        [1, 10],
        [3, 7],
        [4, 4],
        [5, 10],
      ] as const) {
        const { status, body } = await get<{ hashes: string[] }>(
          api,
          `/ledger/proof/consistency?first=${first}&second=${second}`,
        );
        expect(status).toBe(200);
        expect(
          verifyConsistency(first, second, hashes(body.hashes), rootOf(first), rootOf(second)),
        ).toBe(true);
      }
    }
  });

  it('lets one delivery of a payment event take effect; every redelivery answers 200 duplicate', async () => {
    const memberId = await newMember(router[0]!, false, 'payer@example.com');
    const body = JSON.stringify({
      id: 'evt_race',
      type: 'membership.paid',
      member_id: memberId,
      amount: '100.00',
      currency: 'USD',
    });
    const t = Math.floor(Date.now() / 1000);
    const signature = `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')}`;
    const answers = await both(main, 60, (api) =>
      api<{ duplicate: boolean; processed: boolean }>('POST', '/webhooks/payments', {
        body,
        headers: { 'x-signature': signature },
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(60).fill(200));
    expect(answers.filter((a) => !a.body.duplicate)).toHaveLength(1);
    expect(answers.filter((a) => a.body.processed)).toHaveLength(1);
    const member = await router[1]!<{ status: string; activated_at: string; expires_at: string }>(
      'GET',
      `/members/${memberId}`,
    );
    expect(member.body.status).toBe('active');
    // Activated once: a term of one year, not one per delivery.
    const term = Date.parse(member.body.expires_at) - Date.parse(member.body.activated_at);
    expect(term).toBeLessThan(367 * 86_400_000);
  });

  it('never leases one job twice: 16 workers on two servers drain 12 jobs', async () => {
    const memberId = await newMember(router[0]!, true, 'jobs@example.com');
    const jobs = await Promise.all(Array.from({ length: 12 }, () => newJob(router[0]!, memberId)));
    const workers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => newWorker(router[i % 2]!, 'gpu_a_96gb', `w${i}`)),
    );
    const leased = await both(router, 16, async (api, i) => {
      const mine: string[] = [];
      for (;;) {
        const answer = await api<Leased>('POST', '/workers/jobs/lease', {
          token: workers[i]!.worker_token,
          body: {},
        });
        if (answer.status === 204) return mine;
        expect(answer.status).toBe(200);
        mine.push(answer.body.job.job_id);
      }
    });
    const all = leased.flat();
    expect(all).toHaveLength(new Set(all).size);
    expect(new Set(all)).toEqual(new Set(jobs.map((j) => j.job_id)));
  });

  it('ends a running job once: of a complete and a fail sent at once through both servers one gets 200, the other 409, and the job keeps that end', async () => {
    const memberId = await newMember(router[0]!, true, 'ends@example.com');
    const worker = await newWorker(router[0]!, 'gpu_a_96gb', 'ender');
    for (let round = 0; round < 12; round += 1) {
      const { job_id: jobId } = await newJob(router[round % 2]!, memberId);
      const leased = await router[0]!<Leased>('POST', '/workers/jobs/lease', {
        token: worker.worker_token,
        body: {},
      });
      expect(leased.status).toBe(200);
      expect(leased.body.job.job_id).toBe(jobId);
      const fenced = { lease_token: leased.body.lease_token };
      const accepted = await router[1]!('POST', `/workers/jobs/${jobId}/accept`, {
        token: worker.worker_token,
        body: fenced,
      });
      expect(accepted.status).toBe(200);
      // The two ends race from both servers: both may read the job as running, and then the later
      // fenced update waits on the row, misses, and rolls its transaction back (docs/storage.md).
      const [completed, failed] = await Promise.all([
        router[round % 2]!<{ status: string }>('POST', `/workers/jobs/${jobId}/complete`, {
          token: worker.worker_token,
          body: fenced,
        }),
        router[(round + 1) % 2]!<{ status: string }>('POST', `/workers/jobs/${jobId}/fail`, {
          token: worker.worker_token,
          body: { ...fenced, error: 'raced' },
        }),
      ]);
      expect([completed.status, failed.status].sort()).toEqual([200, 409]);
      const winner = completed.status === 200 ? 'completed' : 'failed';
      const job = await router[round % 2]!<{ status: string }>('GET', `/jobs/${jobId}`);
      expect(job.body.status).toBe(winner);
    }
  });

  it('never leaves an organization without an owner when two owners demote each other at once', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await signIn(main[0]!, `a${round}@example.com`);
      const invite = await main[0]!<{ dev_link: string }>('POST', '/org/invites', {
        token: a.token,
        body: { email: `b${round}@example.com`, role: 'owner' },
      });
      expect(invite.status).toBe(201);
      const accepted = await main[1]!<{ access_token: string; user: { id: string } }>(
        'POST',
        '/auth/accept-invite',
        { body: { token: tokenOfLink(invite.body.dev_link) } },
      );
      expect(accepted.status).toBe(200);
      const b = { token: accepted.body.access_token, userId: accepted.body.user.id };
      const [ab, ba] = await Promise.all([
        main[0]!('PATCH', `/org/members/${b.userId}`, { token: a.token, body: { role: 'member' } }),
        main[1]!('PATCH', `/org/members/${a.userId}`, { token: b.token, body: { role: 'member' } }),
      ]);
      // One demotion wins; the other owner, demoted meanwhile, is refused.
      expect([ab.status, ba.status].sort()).toEqual([200, 403]);
      const winner = ab.status === 200 ? a : b;
      const members = await main[round % 2]!<{ members: Array<{ role: string }> }>(
        'GET',
        '/org/members',
        { token: winner.token },
      );
      expect(members.status, members.text).toBe(200);
      expect(members.body.members.filter((m) => m.role === 'owner')).toHaveLength(1);
    }
  });

  it('keeps one receipt per run and gapless, forkless chains under random interleavings of mints over both servers', async () => {
    /** One mint call: which org, which of its runs, which server, and how many turns it waits first. */
    const call = fc.record({
      org: fc.integer({ min: 0, max: 1 }),
      run: fc.integer({ min: 0, max: 2 }),
      server: fc.integer({ min: 0, max: 1 }),
      wait: fc.integer({ min: 0, max: 4 }),
    });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 16 }), async (calls) => {
        round += 1;
        // Two fresh organizations, each with three approved runs (made one after another).
        const orgs: Array<{ token: string; runs: string[] }> = [];
        for (let o = 0; o < 2; o++) {
          const owner = await signIn(main[o]!, `interleave${round}.${o}@example.com`);
          const project = await newProject(main[o]!, owner.token);
          const runs: string[] = [];
          for (let r = 0; r < 3; r++) runs.push(await approvedRun(main[o]!, owner.token, project));
          orgs.push({ token: owner.token, runs });
        }
        const answers = await Promise.all(
          calls.map(async (c) => {
            for (let turn = 0; turn < c.wait; turn++) await new Promise(setImmediate);
            const answer = await main[c.server]!<{ receipt_id: string; org_seq: number }>(
              'POST',
              `/runs/${orgs[c.org]!.runs[c.run]}/receipt`,
              { token: orgs[c.org]!.token },
            );
            return { ...c, status: answer.status, body: answer.body };
          }),
        );
        for (const [o, org] of orgs.entries()) {
          const mine = answers.filter((a) => a.org === o);
          // Exactly one 201 per run minted, every other caller of that run its receipt with 200.
          const byRun = new Map<number, typeof mine>();
          for (const a of mine) byRun.set(a.run, [...(byRun.get(a.run) ?? []), a]);
          for (const same of byRun.values()) {
            expect(same.map((a) => a.status).sort()).toEqual([
              ...Array<number>(same.length - 1).fill(200),
              201,
            ]);
            expect(new Set(same.map((a) => a.body.receipt_id)).size).toBe(1);
          }
          // The chain holds exactly the acknowledged receipts, at the seqs they were answered with.
          const ledger = await main[1 - o]!<{
            entries: Array<{ receipt_id: string; org_seq: number; parent_hash: string }>;
          }>('GET', '/ledger?limit=50', { token: org.token });
          expect(ledger.status).toBe(200);
          expect(ledger.body.entries.map((e) => e.org_seq)).toEqual(
            Array.from({ length: byRun.size }, (_, i) => i),
          );
          const acknowledged = new Map(mine.map((a) => [a.body.receipt_id, a.body.org_seq]));
          expect(new Map(ledger.body.entries.map((e) => [e.receipt_id, e.org_seq]))).toEqual(
            acknowledged,
          );
          const verified = await main[o]!<{ ok: boolean; receipts_checked: number }>(
            'GET',
            '/ledger/verify',
            { token: org.token },
          );
          expect(verified.body).toMatchObject({ ok: true, receipts_checked: byRun.size });
        }
      }),
      { numRuns: 6 },
    );
  }, 300_000);
});
