import { setTimeout as sleep } from 'node:timers/promises';
import type { SignedIn } from './auth.js';
import { signIn } from './auth.js';
import type { Api } from './openapi.js';

export interface TribunalVerdictBody {
  verdict_id: string;
  status: 'queued' | 'grading' | 'complete' | 'failed';
  flight_sheet: { id: string | null; slug: string; version: string; sha256: string };
  submission_sha256: string;
  checks: Array<Record<string, unknown>> | null;
  verdict: Record<string, unknown> | null;
  error: string | null;
  graded_at: string | null;
  history: Array<{
    checks: unknown;
    verdict: unknown;
    error: string | null;
    graded_at: string;
    reason: string;
    regraded_by: string;
    regraded_at: string;
  }>;
}

/** Polls GET /v1/tribunal/verdicts/{id} until it is complete or failed (bounded; no timing is asserted). */
export async function settledVerdict(
  api: Api,
  token: string,
  verdictId: string,
): Promise<TribunalVerdictBody> {
  for (let i = 0; i < 500; i++) {
    const polled = await api<TribunalVerdictBody>('GET', `/v1/tribunal/verdicts/${verdictId}`, {
      token,
    });
    if (polled.status !== 200) throw new Error(`poll: ${polled.status} ${polled.text}`);
    if (polled.body.status === 'complete' || polled.body.status === 'failed') return polled.body;
    await sleep(10);
  }
  throw new Error(`verdict ${verdictId} never settled`);
}

export async function grade(api: Api, token: string, body: unknown): Promise<string> {
  const queued = await api<{ verdict_id: string; status: string }>('POST', '/v1/tribunal/grade', {
    token,
    body,
  });
  if (queued.status !== 202) throw new Error(`grade: ${queued.status} ${queued.text}`);
  return queued.body.verdict_id;
}

/** An owner, a member of the same org (invited), and an API key of that org. */
export async function orgWithRoles(
  api: Api,
  prefix: string,
): Promise<{ owner: SignedIn; member: SignedIn; apiKey: string }> {
  const owner = await signIn(api, `${prefix}-owner@example.com`);
  const invited = await api('POST', '/org/invites', {
    token: owner.token,
    body: { email: `${prefix}-member@example.com`, role: 'member' },
  });
  if (invited.status !== 201) throw new Error(`invite: ${invited.status} ${invited.text}`);
  const member = await signIn(api, `${prefix}-member@example.com`);
  const key = await api<{ key: string }>('POST', '/org/api-keys', {
    token: owner.token,
    body: { name: 'ci' },
  });
  if (key.status !== 201) throw new Error(`api key: ${key.status} ${key.text}`);
  return { owner, member, apiKey: key.body.key };
}
