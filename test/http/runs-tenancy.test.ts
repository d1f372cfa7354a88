import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { SUPPORT_REPLY, newProject, newRun } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** A valid request body per run route, so the 404 is about the run and not about the body. */
const BODIES: Record<string, unknown> = {
  'POST /runs/{run_id}/evidence': { kind: 'note', label: 'n', content: 'x' },
  'POST /runs/{run_id}/submission': SUPPORT_REPLY,
  'PATCH /runs/{run_id}/checks/{check_id}': { status: 'pass' },
  'POST /runs/{run_id}/approve': { decision: 'approved' },
  'POST /runs/{run_id}/incidents': { kind: 'rogue', note: 'x' },
};

describe('another organization’s run id', () => {
  let server: TestServer;
  let api: Api;
  let document: Record<string, unknown>;
  let ada: SignedIn;
  let eve: SignedIn;
  let eveKey: string;
  let runId: string;
  let checkId: string;
  let evidenceId: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ api, document } = await apiClient(server.url));
    ada = await signIn(api, 'ada@example.com');
    eve = await signIn(api, 'eve@example.com');
    eveKey = (
      await api<{ key: string }>('POST', '/org/api-keys', { token: eve.token, body: { name: 'k' } })
    ).body.key;
    runId = await newRun(api, ada.token, await newProject(api, ada.token), 'support-reply');
    const form = new FormData();
    form.append('label', 'f');
    form.append('file', new Blob([new Uint8Array([1, 2, 3])]), 'f.bin');
    evidenceId = (
      await api<{ id: string }>('POST', `/runs/${runId}/evidence/upload`, {
        token: ada.token,
        form,
      })
    ).body.id;
    await api('POST', `/runs/${runId}/submission`, { token: ada.token, body: SUPPORT_REPLY });
    const audit = await api<{ checks: Array<{ id: string; status: string }> }>(
      'POST',
      `/runs/${runId}/audit`,
      { token: ada.token },
    );
    checkId = audit.body.checks.find((c) => c.status === 'open')?.id ?? '';
  });
  afterAll(() => server.close());

  function runRoutes(): Array<[string, string]> {
    const paths = document.paths as Record<string, Record<string, unknown>>;
    return Object.entries(paths)
      .filter(([path]) => path.includes('{run_id}'))
      .flatMap(([path, item]) =>
        Object.keys(item).map((m) => [m.toUpperCase(), path] as [string, string]),
      );
  }

  it('covers every route under /runs/{run_id}', () => {
    expect(runRoutes().length).toBeGreaterThanOrEqual(15);
  });

  it('is a 404 on every run route, for a person and for an API key, and changes nothing', async () => {
    const before = await api('GET', `/runs/${runId}`, { token: ada.token });
    for (const [method, template] of runRoutes()) {
      const path = template
        .replace('{run_id}', runId)
        .replace('{check_id}', checkId)
        .replace('{evidence_id}', evidenceId);
      for (const token of [eve.token, eveKey]) {
        let response;
        if (template.endsWith('/evidence/upload')) {
          const form = new FormData();
          form.append('label', 'x');
          form.append('file', new Blob([new Uint8Array([7])]), 'x.bin');
          response = await api(method, path, { token, form });
        } else {
          const body = BODIES[`${method} ${template}`];
          response = await api(method, path, { token, ...(body !== undefined ? { body } : {}) });
        }
        // An API key can never decide, on any run, so its 403 on approve reveals nothing.
        const expected = token === eveKey && template.endsWith('/approve') ? 403 : 404;
        expect([method, template, response.status]).toEqual([method, template, expected]);
      }
    }
    expect((await api('GET', `/runs/${runId}`, { token: ada.token })).body).toEqual(before.body);
  });

  it('leaves the run out of the other organization’s list and out of a project filter', async () => {
    const list = await api<{ runs: unknown[] }>('GET', '/runs', { token: eve.token });
    expect(list.body.runs).toEqual([]);
    const own = await api<{ runs: Array<{ id: string }> }>('GET', '/runs?state=audited', {
      token: ada.token,
    });
    expect(own.body.runs.map((r) => r.id)).toEqual([runId]);
    expect((await api('GET', '/runs?state=bogus', { token: ada.token })).status).toBe(400);
  });

  it('cannot create a run in another organization’s project', async () => {
    const projectId = await newProject(api, ada.token, 'private');
    const response = await api('POST', '/runs', {
      token: eve.token,
      body: { project_id: projectId, flight_sheet_id: 'agent-task-report', title: 't' },
    });
    expect(response.status).toBe(404);
  });
});
