import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { SUPPORT_REPLY, newProject, newRun } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface IncidentBody {
  id: string;
  run_id: string;
  kind: string;
  note: string;
  rule_key: string | null;
  created_by: string;
}

/** The key the built-in support-reply sheet flags when no conversation evidence is attached. */
const NO_CONVERSATION = 'conversation_attached';

describe('incidents over HTTP', () => {
  let server: TestServer;
  let api: Api;
  let ada: SignedIn;
  let apiKey: string;

  beforeAll(async () => {
    server = await startTestServer();
    api = (await apiClient(server.url)).api;
    ada = await signIn(api, 'ada@example.com');
    const key = await api<{ key: string }>('POST', '/org/api-keys', {
      token: ada.token,
      body: { name: 'ci' },
    });
    apiKey = key.body.key;
  });
  afterAll(() => server.close());

  /** A new run one second after the previous one, so "earlier" is unambiguous. */
  async function laterRun(projectId: string): Promise<string> {
    server.clock.advance(1000);
    return newRun(api, ada.token, projectId, 'support-reply');
  }

  /** An audited support-reply run whose NO_CONVERSATION check is flagged, and `extra` checklist keys too. */
  async function flaggedRun(projectId: string, extra: string[] = []): Promise<string> {
    const runId = await laterRun(projectId);
    await api('POST', `/runs/${runId}/submission`, { token: ada.token, body: SUPPORT_REPLY });
    const audit = await api<{ checks: Array<{ id: string; key: string; status: string }> }>(
      'POST',
      `/runs/${runId}/audit`,
      { token: ada.token },
    );
    expect(audit.body.checks.find((c) => c.key === NO_CONVERSATION)?.status).toBe('flag');
    for (const key of extra) {
      const check = audit.body.checks.find((c) => c.key === key)!;
      const graded = await api('PATCH', `/runs/${runId}/checks/${check.id}`, {
        token: ada.token,
        body: { status: 'flag' },
      });
      expect(graded.status).toBe(200);
    }
    return runId;
  }

  const file = (runId: string, body: unknown, token = ada.token) =>
    api<IncidentBody>('POST', `/runs/${runId}/incidents`, { token, body });

  it('files rogue, dark and policy_violation on any run, for a person and an API key, and lists them in the run', async () => {
    const projectId = await newProject(api, ada.token, 'plain');
    const runId = await laterRun(projectId);
    const rogue = await file(runId, { kind: 'rogue', note: 'acted outside its task' });
    const dark = await file(runId, { kind: 'dark', note: 'stopped reporting' }, apiKey);
    const policy = await file(runId, {
      kind: 'policy_violation',
      note: 'promised a refund',
      rule_key: 'no_forbidden_promises',
    });
    expect([rogue.status, dark.status, policy.status]).toEqual([201, 201, 201]);
    expect(rogue.body).toMatchObject({ run_id: runId, kind: 'rogue', rule_key: null });
    expect(rogue.body.created_by).toBe(ada.userId);
    expect(dark.body.created_by).toMatch(/^key_/);
    expect(policy.body.rule_key).toBe('no_forbidden_promises');

    const list = await api<{ incidents: IncidentBody[] }>('GET', `/runs/${runId}/incidents`, {
      token: apiKey,
    });
    expect(list.status).toBe(200);
    expect(list.body.incidents.map((i) => i.kind).sort()).toEqual([
      'dark',
      'policy_violation',
      'rogue',
    ]);
    const composite = await api<{ incidents: IncidentBody[] }>('GET', `/runs/${runId}`, {
      token: ada.token,
    });
    expect(composite.body.incidents).toEqual(list.body.incidents);
  });

  it('refuses single_flag with a 400 that says why, and records nothing', async () => {
    const runId = await laterRun(await newProject(api, ada.token, 'single'));
    const refused = await file(runId, { kind: 'single_flag', note: 'one flag' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      detail: expect.stringMatching(/^body\.kind: single_flag is not an incident kind/),
    });
    expect((await file(runId, { kind: 'rogue' })).status).toBe(400);
    expect((await file(runId, { kind: 'rogue', note: 'x', severity: 'high' })).status).toBe(400);
    const list = await api<{ incidents: unknown[] }>('GET', `/runs/${runId}/incidents`, {
      token: ada.token,
    });
    expect(list.body.incidents).toEqual([]);
  });

  it('answers 404 for an unknown run', async () => {
    expect((await file('run_nope', { kind: 'rogue', note: 'x' })).status).toBe(404);
    expect((await api('GET', '/runs/run_nope/incidents', { token: ada.token })).status).toBe(404);
  });

  it('accepts recurring_flag only once a rule key was flagged in two earlier runs of the project', async () => {
    const projectId = await newProject(api, ada.token, 'recurring');
    const other = await newProject(api, ada.token, 'elsewhere');
    // Flags in another project never count.
    await flaggedRun(other);
    await flaggedRun(other);

    await flaggedRun(projectId, ['tone_fits']);
    const afterOne = await laterRun(projectId);
    const none = await file(afterOne, { kind: 'recurring_flag', note: 'again' });
    expect(none.status).toBe(409);
    expect(none.body).toEqual({ detail: expect.stringContaining('no rule key') });

    await flaggedRun(projectId);
    // A run that did not flag the rule itself has nothing recurring to report.
    const cleanRun = await laterRun(projectId);
    const clean = await file(cleanRun, { kind: 'recurring_flag', note: 'nothing here' });
    expect(clean.status).toBe(409);
    expect(clean.body).toEqual({ detail: expect.stringContaining('flagged on this run') });
    const afterTwo = await flaggedRun(projectId, ['tone_fits']);
    const accepted = await file(afterTwo, { kind: 'recurring_flag', note: 'third time' });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ kind: 'recurring_flag', rule_key: NO_CONVERSATION });

    // tone_fits was flagged in only one earlier run.
    const named = await file(afterTwo, {
      kind: 'recurring_flag',
      note: 'tone again',
      rule_key: 'tone_fits',
    });
    expect(named.status).toBe(409);
    expect(named.body).toEqual({ detail: expect.stringContaining('in 1 earlier run') });
    const explicit = await file(afterTwo, {
      kind: 'recurring_flag',
      note: 'conversation missing again',
      rule_key: NO_CONVERSATION,
    });
    expect(explicit.status).toBe(201);

    // Runs created after the one in question are not earlier: the run after the first flag still has one.
    expect((await file(afterOne, { kind: 'recurring_flag', note: 'late' })).status).toBe(409);
    expect((await file(cleanRun, { kind: 'recurring_flag', note: 'late' })).status).toBe(409);
    const kinds = await api<{ incidents: IncidentBody[] }>('GET', `/runs/${afterOne}/incidents`, {
      token: ada.token,
    });
    expect(kinds.body.incidents).toEqual([]);
  });

  it('does not count a flagged run created at the same instant as the run asked about', async () => {
    const projectId = await newProject(api, ada.token, 'same-instant');
    await flaggedRun(projectId);
    // A second flagged run at the same instant as the run asked about is not earlier than it.
    server.clock.advance(1000);
    const run = await newRun(api, ada.token, projectId, 'support-reply');
    await api('POST', `/runs/${run}/submission`, { token: ada.token, body: SUPPORT_REPLY });
    await api('POST', `/runs/${run}/audit`, { token: ada.token });
    const sameInstant = await newRun(api, ada.token, projectId, 'support-reply');
    await api('POST', `/runs/${sameInstant}/submission`, { token: ada.token, body: SUPPORT_REPLY });
    await api('POST', `/runs/${sameInstant}/audit`, { token: ada.token });
    expect((await file(sameInstant, { kind: 'recurring_flag', note: 'x' })).status).toBe(409);
    // One second later both flagged runs are earlier.
    const later = await flaggedRun(projectId);
    expect((await file(later, { kind: 'recurring_flag', note: 'x' })).status).toBe(201);
  });
});
