import { BUILTIN_FLIGHT_SHEETS, audit, computeVerdict, flightSheetSha256 } from '@runledger/core';
import type { CheckDraft, FlightSheetInput } from '@runledger/core/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { AGENT_REPORT, SUPPORT_REPLY, finalizedRun, newProject } from '../helpers/runs.js';
import { engines } from '../helpers/postgres.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { grade, orgWithRoles, settledVerdict } from '../helpers/tribunal.js';

const sheetOf = (slug: string) => BUILTIN_FLIGHT_SHEETS.find((s) => s.slug === slug)!;
const LOG = { kind: 'log', label: 'agent log', content: 'step 1 ok\nstep 2 ok\n' } as const;

/** The verdict written out from the synchronous pieces: computeVerdict over graded checks, pass → risk while any is open. */
function expectedVerdict(checks: CheckDraft[], sheet: FlightSheetInput) {
  const open = checks.filter((c) => c.status === 'open').length;
  const graded = computeVerdict(
    checks.filter((c) => c.status !== 'open'),
    sheet,
  );
  if (open === 0) return graded;
  return {
    ...graded,
    outcome: graded.outcome === 'pass' ? 'risk' : graded.outcome,
    counts: { ...graded.counts, open },
  };
}

const INLINE: FlightSheetInput = {
  slug: 'inline-check',
  name: 'Inline check',
  version: '1.0.0',
  lane: 'agent',
  summary: 'A one-off sheet sent with the grading request.',
  pass_threshold: 80,
  fail_threshold: 50,
  audit_checks: [
    {
      key: 'has_answer',
      label: 'Has an answer',
      category: 'structure',
      kind: 'auto',
      severity: 'high',
      check: { op: 'required', paths: ['/answer'] },
    },
    {
      key: 'no_guarantees',
      label: 'Promises nothing',
      category: 'policy',
      kind: 'auto',
      severity: 'mid',
      check: { op: 'deny_terms', terms: ['guarantee'] },
    },
  ],
  required_output_schema: { type: 'object' },
};

describe.each(engines)('tribunal grading with the in-process runner (%s)', (engine) => {
  let server: TestServer;
  let api: Api;
  let owner: SignedIn;
  let member: SignedIn;
  let apiKey: string;
  let stranger: SignedIn;

  beforeAll(async () => {
    server = await startTestServer({}, { engine });
    ({ api } = await apiClient(server.url));
    ({ owner, member, apiKey } = await orgWithRoles(api, 'grading'));
    stranger = await signIn(api, 'stranger@example.org');
  });
  afterAll(() => server.close());

  it('grades an all-auto sheet by slug to the same checks and verdict as the synchronous run audit', async () => {
    const verdictId = await grade(api, member.token, {
      flight_sheet: 'agent-task-report',
      submission: AGENT_REPORT,
      evidence: [LOG],
    });
    const settled = await settledVerdict(api, member.token, verdictId);
    const sheet = sheetOf('agent-task-report');
    const direct = audit(sheet, AGENT_REPORT, [LOG]);
    expect(settled.status).toBe('complete');
    expect(settled.checks).toEqual(direct.checks);
    expect(settled.verdict).toEqual(computeVerdict(direct.checks, sheet));
    expect(settled.flight_sheet).toEqual({
      id: sheet.id,
      slug: sheet.slug,
      version: sheet.version,
      sha256: sheet.sha256,
    });

    // The same inputs as a run, audited over HTTP: same checks (without ids), same verdict.
    const runId = await finalizedRun(api, owner.token, await newProject(api, owner.token));
    const runChecks = await api<{ checks: Array<CheckDraft & { id: string }> }>(
      'GET',
      `/runs/${runId}/checks`,
      { token: owner.token },
    );
    expect(runChecks.body.checks.map(({ id: _id, ...draft }) => draft)).toEqual(settled.checks);
    const runVerdict = await api('GET', `/runs/${runId}/verdict`, { token: owner.token });
    expect(runVerdict.body).toEqual(settled.verdict);
  });

  it('keeps checklist checks open and turns what would pass into risk', async () => {
    const note = {
      kind: 'note',
      label: 'conversation',
      content: 'customer asked about invoices',
    } as const;
    const verdictId = await grade(api, apiKey, {
      flight_sheet: 'support-reply',
      submission: SUPPORT_REPLY,
      evidence: [note],
    });
    const settled = await settledVerdict(api, owner.token, verdictId);
    const sheet = sheetOf('support-reply');
    const direct = audit(sheet, SUPPORT_REPLY, [note]);
    expect(settled.checks).toEqual(direct.checks);
    expect(settled.checks!.filter((c) => c.status === 'open')).toHaveLength(4);
    expect(settled.verdict).toEqual(expectedVerdict(direct.checks, sheet));
    // Every auto rule passed, so only the open checklist keeps this from passing.
    expect(
      computeVerdict(
        direct.checks.filter((c) => c.status !== 'open'),
        sheet,
      ).outcome,
    ).toBe('pass');
    expect(settled.verdict).toMatchObject({ outcome: 'risk' });
  });

  it('grades an inline flight sheet and pins its sha256 with a null id', async () => {
    const verdictId = await grade(api, owner.token, {
      flight_sheet: INLINE,
      submission: { answer: 'We guarantee it' },
    });
    const settled = await settledVerdict(api, owner.token, verdictId);
    expect(settled.flight_sheet).toEqual({
      id: null,
      slug: INLINE.slug,
      version: INLINE.version,
      sha256: flightSheetSha256(INLINE),
    });
    const direct = audit(INLINE, { answer: 'We guarantee it' }, []);
    expect(settled.checks).toEqual(direct.checks);
    expect(settled.verdict).toEqual(computeVerdict(direct.checks, INLINE));
    expect(settled.verdict).toMatchObject({ outcome: 'risk', severity: 'jelly' });
  });

  it('refuses an invalid inline sheet, an unknown sheet and a bad body, naming the problem', async () => {
    const thresholds = await api('POST', '/v1/tribunal/grade', {
      token: owner.token,
      body: { flight_sheet: { ...INLINE, fail_threshold: 90 }, submission: {} },
    });
    expect(thresholds.status).toBe(400);
    expect(thresholds.body).toEqual({ detail: expect.stringMatching(/fail_threshold/) });
    const badRule = await api('POST', '/v1/tribunal/grade', {
      token: owner.token,
      body: { flight_sheet: { ...INLINE, pass_threshold: 'high' }, submission: {} },
    });
    expect(badRule.status).toBe(400);
    expect(badRule.body).toEqual({ detail: expect.stringMatching(/flight_sheet\.pass_threshold/) });
    const unknown = await api('POST', '/v1/tribunal/grade', {
      token: owner.token,
      body: { flight_sheet: 'no-such-sheet', submission: {} },
    });
    expect(unknown.status).toBe(404);
    const noSubmission = await api('POST', '/v1/tribunal/grade', {
      token: owner.token,
      body: { flight_sheet: 'support-reply' },
    });
    expect(noSubmission.status).toBe(400);
    const anonymous = await api('POST', '/v1/tribunal/grade', {
      body: { flight_sheet: 'support-reply', submission: {} },
    });
    expect(anonymous.status).toBe(401);
  });

  it('answers 404 for another organization’s verdict and for an unknown id', async () => {
    const verdictId = await grade(api, owner.token, {
      flight_sheet: 'support-reply',
      submission: SUPPORT_REPLY,
    });
    const other = await api('GET', `/v1/tribunal/verdicts/${verdictId}`, { token: stranger.token });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ detail: expect.any(String) });
    const regradeOther = await api('POST', '/v1/tribunal/regrade', {
      token: stranger.token,
      body: { verdict_id: verdictId, reason: 'not mine' },
    });
    expect(regradeOther.status).toBe(404);
    expect(
      (await api('GET', '/v1/tribunal/verdicts/vrd_unknown', { token: owner.token })).status,
    ).toBe(404);
  });

  it('lets only an owner regrade: a member and an API key get 403, the owner a new result with history naming who regraded and when', async () => {
    const verdictId = await grade(api, member.token, {
      flight_sheet: 'agent-task-report',
      submission: AGENT_REPORT,
      evidence: [LOG],
    });
    const first = await settledVerdict(api, member.token, verdictId);
    const body = { verdict_id: verdictId, reason: 'rule set reviewed' };
    const byMember = await api('POST', '/v1/tribunal/regrade', { token: member.token, body });
    expect(byMember.status).toBe(403);
    const byKey = await api('POST', '/v1/tribunal/regrade', {
      headers: { 'x-api-key': apiKey },
      body,
    });
    expect(byKey.status).toBe(403);
    expect(
      (await api('GET', `/v1/tribunal/verdicts/${verdictId}`, { token: owner.token })).body,
    ).toEqual(first);

    server.clock.advance(60_000);
    const regradedAt = server.clock.now().toISOString();
    const byOwner = await api('POST', '/v1/tribunal/regrade', { token: owner.token, body });
    expect(byOwner.status).toBe(202);
    expect(byOwner.body).toEqual({ verdict_id: verdictId, status: 'queued' });
    const second = await settledVerdict(api, owner.token, verdictId);
    expect(second.status).toBe('complete');
    expect(second.graded_at! > first.graded_at!).toBe(true);
    expect(second.history).toEqual([
      {
        checks: first.checks,
        verdict: first.verdict,
        error: null,
        graded_at: first.graded_at,
        reason: 'rule set reviewed',
        regraded_by: owner.userId,
        regraded_at: regradedAt,
      },
    ]);
  });

  it('answers 503 on every runner route while RUNNER_TOKEN is unset', async () => {
    const headers = { 'x-runner-token': 'anything' };
    const claim = await api('POST', '/internal/runner/claim', { headers, body: {} });
    expect(claim.status).toBe(503);
    expect(claim.body).toEqual({ detail: expect.stringMatching(/RUNNER_TOKEN/) });
    for (const action of ['status', 'complete', 'fail']) {
      const response = await api('POST', `/internal/runner/tasks/tsk_x/${action}`, {
        headers,
        body: { claim_token: 'x' },
      });
      expect(response.status).toBe(503);
    }
  });
});
