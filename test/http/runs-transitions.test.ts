import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import {
  AGENT_REPORT,
  SUPPORT_REPLY,
  approvedRun,
  decide,
  finalizedRun,
  mint,
  newProject,
  newRun,
} from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Check {
  id: string;
  key: string;
  status: string;
}

/** Every 409 of SPEC's transition table and docs/design.md#run-lifecycle, over HTTP. */
describe('run transitions that are refused', () => {
  let server: TestServer;
  let api: Api;
  let owner: SignedIn;
  let member: SignedIn;
  let apiKey: string;
  let projectId: string;

  const ledgerSize = async () =>
    (await api<{ entries: unknown[] }>('GET', '/ledger?limit=200', { token: owner.token })).body
      .entries.length;
  const stateOf = async (runId: string) =>
    (await api<{ run: { state: string } }>('GET', `/runs/${runId}`, { token: owner.token })).body
      .run.state;
  const post = (path: string, token: string, body?: unknown) =>
    api('POST', path, { token, ...(body !== undefined ? { body } : {}) });

  /** A support-reply run audited with its four checklist checks open. */
  async function auditedRun(): Promise<{ runId: string; open: Check[] }> {
    const runId = await newRun(api, owner.token, projectId, 'support-reply', 'ticket');
    await post(`/runs/${runId}/evidence`, owner.token, {
      kind: 'text',
      label: 'conversation',
      content: 'hello',
    });
    await post(`/runs/${runId}/submission`, owner.token, SUPPORT_REPLY);
    const audit = await api<{ checks: Check[] }>('POST', `/runs/${runId}/audit`, {
      token: owner.token,
    });
    return { runId, open: audit.body.checks.filter((c) => c.status === 'open') };
  }

  beforeAll(async () => {
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    owner = await signIn(api, 'owner@example.com');
    await post('/org/invites', owner.token, { email: 'member@example.com', role: 'member' });
    member = await signIn(api, 'member@example.com');
    const key = await api<{ key: string }>('POST', '/org/api-keys', {
      token: owner.token,
      body: { name: 'ci' },
    });
    apiKey = key.body.key;
    projectId = await newProject(api, owner.token);
  });
  afterAll(() => server.close());

  it('audit without a submission is a 409', async () => {
    const runId = await newRun(api, owner.token, projectId);
    const response = await post(`/runs/${runId}/audit`, owner.token);
    expect(response.status).toBe(409);
    expect(await stateOf(runId)).toBe('draft');
  });

  it('approve before audit is a 409 (for every decision)', async () => {
    const runId = await newRun(api, owner.token, projectId);
    await post(`/runs/${runId}/submission`, owner.token, AGENT_REPORT);
    for (const decision of ['approved', 'rejected', 'escalated']) {
      expect((await post(`/runs/${runId}/approve`, owner.token, { decision })).status).toBe(409);
    }
    expect(await stateOf(runId)).toBe('draft');
  });

  it('approve and findings while checks are open are 409; grading then finalizes', async () => {
    const { runId, open } = await auditedRun();
    expect(open).toHaveLength(4);
    expect(
      (await post(`/runs/${runId}/approve`, owner.token, { decision: 'approved' })).status,
    ).toBe(409);
    expect((await post(`/runs/${runId}/findings`, owner.token)).status).toBe(409);
    expect((await api('GET', `/runs/${runId}/verdict`, { token: owner.token })).status).toBe(404);
    for (const check of open) {
      await api('PATCH', `/runs/${runId}/checks/${check.id}`, {
        token: owner.token,
        body: { status: 'pass' },
      });
    }
    // Grading an already graded check is a 409, as is findings' twin: approve before findings.
    const regrade = await api('PATCH', `/runs/${runId}/checks/${open[0]?.id}`, {
      token: owner.token,
      body: { status: 'flag' },
    });
    expect(regrade.status).toBe(409);
    expect(
      (await post(`/runs/${runId}/approve`, owner.token, { decision: 'approved' })).status,
    ).toBe(409);
    expect((await post(`/runs/${runId}/findings`, owner.token)).status).toBe(200);
    expect(await stateOf(runId)).toBe('finalized');
  });

  it('findings before audit and grading a check of a finalized run are 409', async () => {
    const draft = await newRun(api, owner.token, projectId);
    expect((await post(`/runs/${draft}/findings`, owner.token)).status).toBe(409);
    const finalized = await finalizedRun(api, owner.token, projectId);
    const checks = await api<{ checks: Check[] }>('GET', `/runs/${finalized}/checks`, {
      token: owner.token,
    });
    const graded = await api('PATCH', `/runs/${finalized}/checks/${checks.body.checks[0]?.id}`, {
      token: owner.token,
      body: { status: 'flag' },
    });
    expect(graded.status).toBe(409);
  });

  it('receipt is a 409 for draft, audited and finalized runs, and nothing is minted', async () => {
    const before = await ledgerSize();
    const draft = await newRun(api, owner.token, projectId);
    const { runId: audited } = await auditedRun();
    const finalized = await finalizedRun(api, owner.token, projectId);
    for (const runId of [draft, audited, finalized]) {
      expect((await post(`/runs/${runId}/receipt`, owner.token)).status).toBe(409);
    }
    expect(await ledgerSize()).toBe(before);
  });

  it('rejected and escalated runs mint nothing', async () => {
    const before = await ledgerSize();
    const rejected = await finalizedRun(api, owner.token, projectId);
    await decide(api, owner.token, rejected, 'rejected', 'wrong totals');
    const escalated = await finalizedRun(api, owner.token, projectId);
    await decide(api, member.token, escalated, 'escalated');
    for (const runId of [rejected, escalated]) {
      const response = await post(`/runs/${runId}/receipt`, owner.token);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ detail: expect.any(String) });
    }
    expect(await ledgerSize()).toBe(before);
    const composite = await api<{ receipt: unknown; approval: { decision: string } }>(
      'GET',
      `/runs/${rejected}`,
      { token: owner.token },
    );
    expect(composite.body).toMatchObject({ receipt: null, approval: { decision: 'rejected' } });
  });

  it('a second decision on an approved or rejected run is a 409', async () => {
    const approved = await approvedRun(api, owner.token, projectId);
    const rejected = await finalizedRun(api, owner.token, projectId);
    await decide(api, owner.token, rejected, 'rejected');
    for (const runId of [approved, rejected]) {
      for (const decision of ['approved', 'rejected', 'escalated']) {
        expect((await post(`/runs/${runId}/approve`, owner.token, { decision })).status).toBe(409);
      }
    }
  });

  it('an escalated run is settled by an owner, not a member (403)', async () => {
    const runId = await finalizedRun(api, owner.token, projectId);
    await decide(api, member.token, runId, 'escalated', 'not sure');
    expect(await stateOf(runId)).toBe('escalated');
    expect(
      (await post(`/runs/${runId}/approve`, member.token, { decision: 'approved' })).status,
    ).toBe(403);
    expect(
      (await post(`/runs/${runId}/approve`, owner.token, { decision: 'escalated' })).status,
    ).toBe(409);
    await decide(api, owner.token, runId, 'approved');
    const before = await ledgerSize();
    await mint(api, owner.token, runId);
    expect(await ledgerSize()).toBe(before + 1);
  });

  it('an API key may do everything up to the decision, which needs a person (403)', async () => {
    const runId = await finalizedRun(api, apiKey, projectId);
    const response = await post(`/runs/${runId}/approve`, apiKey, { decision: 'approved' });
    expect(response.status).toBe(403);
    expect(await stateOf(runId)).toBe('finalized');
    await decide(api, member.token, runId, 'approved');
    expect((await post(`/runs/${runId}/receipt`, apiKey)).status).toBe(201);
  });

  it('evidence and submission change until the decision, and a change after audit returns the run to draft', async () => {
    const runId = await finalizedRun(api, owner.token, projectId);
    expect(await stateOf(runId)).toBe('finalized');
    await post(`/runs/${runId}/evidence`, owner.token, { kind: 'note', label: 'n', content: 'x' });
    const composite = await api<{ run: { state: string }; checks: unknown[]; verdict: unknown }>(
      'GET',
      `/runs/${runId}`,
      { token: owner.token },
    );
    expect(composite.body).toMatchObject({ run: { state: 'draft' }, checks: [], verdict: null });
    await post(`/runs/${runId}/audit`, owner.token);
    await decide(api, owner.token, runId, 'approved');
    const late = [
      await post(`/runs/${runId}/evidence`, owner.token, {
        kind: 'note',
        label: 'n',
        content: 'y',
      }),
      await post(`/runs/${runId}/submission`, owner.token, AGENT_REPORT),
      await post(`/runs/${runId}/audit`, owner.token),
    ];
    expect(late.map((r) => r.status)).toEqual([409, 409, 409]);
  });

  it('the chain grows by exactly one per minted receipt, not on a repeated mint', async () => {
    const runs = [
      await approvedRun(api, owner.token, projectId),
      await approvedRun(api, owner.token, projectId),
    ];
    for (const runId of runs) {
      const before = await ledgerSize();
      const first = await post(`/runs/${runId}/receipt`, owner.token);
      expect(first.status).toBe(201);
      expect(await ledgerSize()).toBe(before + 1);
      const again = await post(`/runs/${runId}/receipt`, owner.token);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(await ledgerSize()).toBe(before + 1);
    }
    const verified = await api<{ ok: boolean }>('GET', '/ledger/verify', { token: owner.token });
    expect(verified.body.ok).toBe(true);
  });
});

describe('owner-only flight sheets', () => {
  let server: TestServer;
  let api: Api;
  let owner: SignedIn;
  let member: SignedIn;

  const sheet = (version: string, pass = 80, fail = 50) => ({
    slug: 'release-notes',
    name: 'Release notes',
    version,
    lane: 'docs',
    summary: 'Release notes name a version and list changes.',
    pass_threshold: pass,
    fail_threshold: fail,
    audit_checks: [
      {
        key: 'has_version',
        label: 'Names the version',
        category: 'structure',
        kind: 'auto',
        severity: 'high',
        check: { op: 'required', paths: ['/version'] },
      },
      {
        key: 'reads_well',
        label: 'Reads well',
        category: 'policy',
        kind: 'checklist',
        severity: 'low',
        guidance: 'Would a user understand each line?',
      },
    ],
    required_output_schema: { type: 'object', required: ['version'] },
  });

  beforeAll(async () => {
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    owner = await signIn(api, 'owner@example.com');
    await api('POST', '/org/invites', {
      token: owner.token,
      body: { email: 'member@example.com', role: 'member' },
    });
    member = await signIn(api, 'member@example.com');
  });
  afterAll(() => server.close());

  it('lets an owner add a version and read it by slug; a member gets 403', async () => {
    expect(
      (await api('POST', '/flight-sheets', { token: member.token, body: sheet('1.0.0') })).status,
    ).toBe(403);
    const created = await api<{ id: string; slug: string; builtin: boolean }>(
      'POST',
      '/flight-sheets',
      {
        token: owner.token,
        body: sheet('1.0.0'),
      },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: 'release-notes', builtin: false });
    const v2 = await api<{ id: string; version: string }>('POST', '/flight-sheets', {
      token: owner.token,
      body: sheet('1.1.0'),
    });
    expect(v2.status).toBe(201);
    const bySlug = await api<{ version: string }>('GET', '/flight-sheets/release-notes', {
      token: member.token,
    });
    expect(bySlug.body.version).toBe('1.1.0');
    const byId = await api<{ version: string }>('GET', `/flight-sheets/${created.body.id}`, {
      token: member.token,
    });
    expect(byId.body.version).toBe('1.0.0');
    const docs = await api<{ flight_sheets: Array<{ slug: string }> }>(
      'GET',
      '/flight-sheets?lane=docs',
      { token: member.token },
    );
    expect(docs.body.flight_sheets.map((s) => s.slug)).toEqual(['release-notes', 'release-notes']);
  });

  it('refuses thresholds out of order (400) and a version that is not newer (409)', async () => {
    expect(
      (await api('POST', '/flight-sheets', { token: owner.token, body: sheet('2.0.0', 40, 60) }))
        .status,
    ).toBe(400);
    expect(
      (await api('POST', '/flight-sheets', { token: owner.token, body: sheet('1.0.0') })).status,
    ).toBe(409);
  });

  it('keeps another organization’s sheets invisible', async () => {
    const stranger = await signIn(api, 'stranger@example.com');
    expect(
      (await api('GET', '/flight-sheets/release-notes', { token: stranger.token })).status,
    ).toBe(404);
  });
});
