import { drive, expectStatus, httpClient, type Figures, type HttpClient } from './load.js';
import { parallel, REPORT, type SeededOrg } from './seed.js';

const json = (value: unknown) => JSON.stringify(value);

/** Signs in over HTTP as a seeded user (dev_link, no mailer) and returns the bearer header. */
export async function signIn(api: HttpClient, email: string): Promise<Record<string, string>> {
  const asked = expectStatus(await api.request('POST', '/auth/request', {}, json({ email })), 200);
  const link = new URL((JSON.parse(asked.body) as { dev_link: string }).dev_link);
  const verified = expectStatus(
    await api.request('POST', '/auth/verify', {}, json({ token: link.searchParams.get('token') })),
    200,
  );
  return {
    authorization: `Bearer ${(JSON.parse(verified.body) as { access_token: string }).access_token}`,
  };
}

export const health = (api: HttpClient, seconds: number) =>
  drive(64, seconds, async () => {
    expectStatus(await api.request('GET', '/health'), 200);
    return 'ok';
  });

export const authenticatedRead = (api: HttpClient, auth: Record<string, string>, seconds: number) =>
  drive(64, seconds, async () => {
    expectStatus(await api.request('GET', '/projects?limit=10', auth), 200);
    return 'ok';
  });

/** POST /runs/{id}/receipt on approved runs, each once, until they run out or time does. */
export function mintOnly(
  api: HttpClient,
  auth: Record<string, string>,
  runs: string[],
  clients: number,
  seconds: number,
): Promise<Figures> {
  const queue = [...runs];
  return drive(clients, seconds, async () => {
    const run = queue.pop();
    if (run === undefined) return 'done';
    expectStatus(await api.request('POST', `/runs/${run}/receipt`, auth), 201);
    return 'ok';
  });
}

/** Create, evidence, submission, audit, approve, receipt: one operation per receipt. */
export const fullFlow = (
  api: HttpClient,
  auth: Record<string, string>,
  org: SeededOrg,
  seconds: number,
) =>
  drive(64, seconds, async () => {
    const created = expectStatus(
      await api.request(
        'POST',
        '/runs',
        auth,
        json({ project_id: org.projectId, flight_sheet_id: 'agent-task-report', title: 'flow' }),
      ),
      201,
    );
    const id = (JSON.parse(created.body) as { id: string }).id;
    const steps: Array<[string, string | undefined]> = [
      [`/runs/${id}/evidence`, json({ kind: 'log', label: 'log', content: 'ok' })],
      [`/runs/${id}/submission`, json(REPORT)],
      [`/runs/${id}/audit`, undefined],
      [`/runs/${id}/approve`, json({ decision: 'approved', note: 'bench' })],
      [`/runs/${id}/receipt`, undefined],
    ];
    for (const [path, body] of steps)
      expectStatus(await api.request('POST', path, auth, body), 200, 201);
    return 'ok';
  });

export interface RouterFigures extends Figures {
  double_leases: number;
}

/**
 * 32 workers each loop lease → accept → complete over `jobs` queued jobs (created first, untimed);
 * a job leased twice is counted as a double lease.
 */
export async function leaseFlow(
  routerUrl: string,
  registrationKey: string,
  jobs: number,
  seconds: number,
): Promise<RouterFigures> {
  const api = httpClient(routerUrl, 64);
  try {
    const member = JSON.parse(
      expectStatus(
        await api.request(
          'POST',
          '/members',
          {},
          json({ email: 'bench@example.com', name: 'Bench' }),
        ),
        201,
      ).body,
    ) as { member_id: string };
    expectStatus(await api.request('POST', `/members/${member.member_id}/activate`, {}, '{}'), 200);
    await parallel(jobs, 64, async () => {
      expectStatus(
        await api.request(
          'POST',
          '/jobs',
          {},
          json({
            member_id: member.member_id,
            type: 'inference',
            node_class: 'gpu_a_96gb',
            hours: 1,
          }),
        ),
        201,
      );
    });
    const tokens: string[] = [];
    for (let i = 0; i < 32; i += 1) {
      const registered = expectStatus(
        await api.request(
          'POST',
          '/workers/register',
          { 'x-registration-key': registrationKey },
          json({ name: `w${i}`, node_class: 'gpu_a_96gb' }),
        ),
        201,
      );
      tokens.push((JSON.parse(registered.body) as { worker_token: string }).worker_token);
    }
    const leased = new Set<string>();
    let doubles = 0;
    const figures = await drive(32, seconds, async (worker) => {
      const auth = { authorization: `Bearer ${tokens[worker]!}` };
      const lease = expectStatus(
        await api.request('POST', '/workers/jobs/lease', auth, '{}'),
        200,
        204,
      );
      if (lease.status === 204) return 'done';
      const body = JSON.parse(lease.body) as { job: { job_id: string }; lease_token: string };
      if (leased.has(body.job.job_id)) doubles += 1;
      leased.add(body.job.job_id);
      const fenced = json({ lease_token: body.lease_token });
      expectStatus(
        await api.request('POST', `/workers/jobs/${body.job.job_id}/accept`, auth, fenced),
        200,
      );
      expectStatus(
        await api.request('POST', `/workers/jobs/${body.job.job_id}/complete`, auth, fenced),
        200,
      );
      return 'ok';
    });
    return { ...figures, double_leases: doubles };
  } finally {
    api.close();
  }
}
