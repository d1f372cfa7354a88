import { BUILTIN_FLIGHT_SHEETS, audit, computeVerdict } from '@runledger/core';
import type { CheckDraft } from '@runledger/core/schemas';
import { RunnerHttpError, runExternalRunner } from '@runledger/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { AGENT_REPORT, SUPPORT_REPLY } from '../helpers/runs.js';
import { engines } from '../helpers/postgres.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { grade, orgWithRoles, type TribunalVerdictBody } from '../helpers/tribunal.js';

const TOKEN = 'runner-token-for-tests-0123456789abcdef';
const runner = { 'x-runner-token': TOKEN };
const LOG = { kind: 'log', label: 'agent log', content: 'step 1 ok\nstep 2 ok\n' } as const;
const agentSheet = BUILTIN_FLIGHT_SHEETS.find((s) => s.slug === 'agent-task-report')!;
const supportSheet = BUILTIN_FLIGHT_SHEETS.find((s) => s.slug === 'support-reply')!;
const NOTE = {
  kind: 'note',
  label: 'conversation',
  content: 'customer asked about invoices',
} as const;

interface ClaimedTask {
  task_id: string;
  verdict_id: string;
  claim_token: string;
  claim_expires_at: string;
  attempt: number;
  flight_sheet: { slug: string };
}

describe.each(engines)(
  'runner routes and external runners (TRIBUNAL_RUNNER=external, %s)',
  (engine) => {
    let server: TestServer;
    let api: Api;
    let owner: SignedIn;

    beforeAll(async () => {
      server = await startTestServer(
        {
          RUNNER_TOKEN: TOKEN,
          TRIBUNAL_RUNNER: 'external',
          TRIBUNAL_CLAIM_TTL_SECONDS: '300',
          TRIBUNAL_MAX_ATTEMPTS: '2',
        },
        { engine },
      );
      ({ api } = await apiClient(server.url));
      ({ owner } = await orgWithRoles(api, 'runner'));
    });
    afterAll(() => server.close());

    const verdictOf = async (id: string) =>
      (await api<TribunalVerdictBody>('GET', `/v1/tribunal/verdicts/${id}`, { token: owner.token }))
        .body;
    const claim = (runnerId: string) =>
      api<ClaimedTask>('POST', '/internal/runner/claim', {
        headers: runner,
        body: { runner_id: runnerId },
      });
    const act = (task: ClaimedTask, action: string, body: object, token = task.claim_token) =>
      api('POST', `/internal/runner/tasks/${task.task_id}/${action}`, {
        headers: runner,
        body: { claim_token: token, ...body },
      });

    it('answers 401 for a missing or wrong X-Runner-Token on every runner route', async () => {
      const variants: Array<Record<string, string>> = [
        {},
        { 'x-runner-token': `${TOKEN}x` },
        { 'x-runner-token': '' },
      ];
      for (const headers of variants) {
        const claimed = await api('POST', '/internal/runner/claim', { headers, body: {} });
        expect(claimed.status).toBe(401);
        expect(claimed.body).toEqual({ detail: expect.any(String) });
        for (const action of ['status', 'complete', 'fail']) {
          const response = await api('POST', `/internal/runner/tasks/tsk_x/${action}`, {
            headers,
            body: { claim_token: 'x', checks: [], error: 'x' },
          });
          expect(response.status).toBe(401);
        }
      }
    });

    it('answers 204 when no task is queued, and leaves graded work queued without a runner', async () => {
      expect((await claim('a')).status).toBe(204);
      const verdictId = await grade(api, owner.token, {
        flight_sheet: 'agent-task-report',
        submission: AGENT_REPORT,
        evidence: [LOG],
      });
      expect((await verdictOf(verdictId)).status).toBe('queued');
      const early = await api('POST', '/v1/tribunal/regrade', {
        token: owner.token,
        body: { verdict_id: verdictId, reason: 'too soon' },
      });
      expect(early.status).toBe(409);
      // Drain it so the next tests start from an empty queue.
      const report = await runExternalRunner({
        baseUrl: server.url,
        runnerToken: TOKEN,
        once: true,
      });
      expect(report).toEqual({ completed: 1, failed: 0, lost: 0 });
    });

    it('rejects a stale runner’s complete with 409 and no change once its claim expired and another runner claimed', async () => {
      const verdictId = await grade(api, owner.token, {
        flight_sheet: 'agent-task-report',
        submission: AGENT_REPORT,
        evidence: [LOG],
      });
      const first = await claim('runner-a');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ verdict_id: verdictId, attempt: 1 });
      expect(first.body.claim_token).toMatch(/^rlc_/);
      expect((await verdictOf(verdictId)).status).toBe('grading');

      server.clock.advance(200_000);
      const extended = await act(first.body, 'status', { message: 'halfway' });
      expect(extended.status).toBe(200);
      expect(extended.body).toMatchObject({ status: 'claimed', message: 'halfway' });
      expect(Date.parse(extended.body.claim_expires_at as string)).toBe(
        server.clock.now().getTime() + 300_000,
      );

      server.clock.advance(300_000);
      const second = await claim('runner-b');
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ task_id: first.body.task_id, attempt: 2 });

      const { checks } = audit(agentSheet, AGENT_REPORT, [LOG]);
      const before = await verdictOf(verdictId);
      const stale = await act(first.body, 'complete', { checks });
      expect(stale.status).toBe(409);
      expect(stale.body).toEqual({ detail: expect.stringMatching(/stale claim/) });
      expect((await act(first.body, 'status', {})).status).toBe(409);
      expect((await act(first.body, 'fail', { error: 'late' })).status).toBe(409);
      expect(await verdictOf(verdictId)).toEqual(before);
      expect(before).toMatchObject({ status: 'grading', checks: null, verdict: null });

      const wrong = await act(second.body, 'complete', { checks: checks.slice(1) });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ detail: expect.stringMatching(/no check for rule/) });
      const flipped: CheckDraft[] = checks.map((c) => ({ ...c, status: 'flag' }));
      const done = await act(second.body, 'complete', { checks: flipped });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ status: 'completed', attempt: 2, claim_expires_at: null });
      const settled = await verdictOf(verdictId);
      expect(settled.status).toBe('complete');
      expect(settled.checks).toEqual(flipped);
      // The server computed the verdict from the runner's checks, not anything the runner said.
      expect(settled.verdict).toEqual(computeVerdict(flipped, agentSheet));
      expect((await act(second.body, 'fail', { error: 'again' })).status).toBe(409);
    });

    it('refuses a runner that grades checklist checks with 400 and no change: the outcome stays at best risk', async () => {
      const verdictId = await grade(api, owner.token, {
        flight_sheet: 'support-reply',
        submission: SUPPORT_REPLY,
        evidence: [NOTE],
      });
      const claimed = await claim('grader');
      expect(claimed.body).toMatchObject({ verdict_id: verdictId });
      const { checks } = audit(supportSheet, SUPPORT_REPLY, [NOTE]);
      const before = await verdictOf(verdictId);
      const allPass: CheckDraft[] = checks.map((c) => ({ ...c, status: 'pass' }));
      const graded = await act(claimed.body, 'complete', { checks: allPass });
      expect(graded.status).toBe(400);
      expect(graded.body).toEqual({
        detail: expect.stringMatching(/has status pass; checklist rules allow open/),
      });
      expect(await verdictOf(verdictId)).toEqual(before);

      const done = await act(claimed.body, 'complete', { checks });
      expect(done.status).toBe(200);
      const settled = await verdictOf(verdictId);
      expect(settled.checks).toEqual(checks);
      expect(settled.verdict).toMatchObject({ outcome: 'risk', counts: { open: 4 } });
    });

    it('fails the verdict when the claim expires on the last attempt', async () => {
      const verdictId = await grade(api, owner.token, {
        flight_sheet: 'support-reply',
        submission: SUPPORT_REPLY,
      });
      expect((await claim('a')).status).toBe(200);
      server.clock.advance(300_000);
      expect((await claim('b')).body).toMatchObject({ verdict_id: verdictId, attempt: 2 });
      server.clock.advance(300_000);
      expect((await claim('c')).status).toBe(204);
      const failed = await verdictOf(verdictId);
      expect(failed).toMatchObject({ status: 'failed', checks: null, verdict: null });
      expect(failed.error).toMatch(/expired on attempt 2 of 2/);
    });

    it('records a runner’s fail, and an owner’s regrade is graded by an external runner with the failure in history', async () => {
      const verdictId = await grade(api, owner.token, {
        flight_sheet: 'agent-task-report',
        submission: AGENT_REPORT,
        evidence: [LOG],
      });
      const claimed = await claim('a');
      const failed = await act(claimed.body, 'fail', { error: 'model unavailable' });
      expect(failed.status).toBe(200);
      expect(failed.body).toMatchObject({ status: 'failed' });
      const afterFail = await verdictOf(verdictId);
      expect(afterFail).toMatchObject({ status: 'failed', error: 'model unavailable' });

      server.clock.advance(1_000);
      const regradedAt = server.clock.now().toISOString();
      const regraded = await api('POST', '/v1/tribunal/regrade', {
        token: owner.token,
        body: { verdict_id: verdictId, reason: 'model is back' },
      });
      expect(regraded.status).toBe(202);
      const report = await runExternalRunner({
        baseUrl: server.url,
        runnerToken: TOKEN,
        once: true,
      });
      expect(report).toEqual({ completed: 1, failed: 0, lost: 0 });
      const settled = await verdictOf(verdictId);
      const direct = audit(agentSheet, AGENT_REPORT, [LOG]);
      expect(settled).toMatchObject({ status: 'complete', error: null, checks: direct.checks });
      expect(settled.verdict).toEqual(computeVerdict(direct.checks, agentSheet));
      expect(settled.history).toEqual([
        {
          checks: null,
          verdict: null,
          error: 'model unavailable',
          graded_at: afterFail.graded_at,
          reason: 'model is back',
          regraded_by: owner.userId,
          regraded_at: regradedAt,
        },
      ]);
    });

    it('stops an external runner with a wrong token on the 401', async () => {
      await expect(
        runExternalRunner({ baseUrl: server.url, runnerToken: 'wrong', once: true }),
      ).rejects.toSatisfy((e) => e instanceof RunnerHttpError && e.status === 401);
    });
  },
);
