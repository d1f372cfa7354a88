import { readFile } from 'node:fs/promises';
import { parseKeysDocument, type TrustedKey } from '@runledger/verify';
import type { Api } from '../helpers/openapi.js';
import { AGENT_REPORT, decide, mint, newRun, type MintedReceipt } from '../helpers/runs.js';

/**
 * Submissions for the built-in all-auto sheet `agent-task-report` that audit to each verdict: the
 * good report passes; a failed task over budget is risk (score between the thresholds); adding a
 * total that does not add up and a leaked secret is fail (score under 50).
 */
export const REPORTS = {
  pass: AGENT_REPORT,
  risk: { ...AGENT_REPORT, status: 'failed', budget_usd: '0.10' },
  fail: {
    ...AGENT_REPORT,
    status: 'failed',
    budget_usd: '0.10',
    totals: { ...AGENT_REPORT.totals, cost_usd: '9.99' },
    summary: 'Done; password=hunter2',
  },
} as const;

export type Outcome = keyof typeof REPORTS;

async function expectOk(what: string, answer: Promise<{ status: number; text: string }>) {
  const { status, text } = await answer;
  if (status >= 300) throw new Error(`${what}: ${status} ${text}`);
}

/** A run audited against `REPORTS[outcome]`: finalized, with that verdict (checked). */
export async function auditedRun(
  api: Api,
  token: string,
  projectId: string,
  outcome: Outcome,
): Promise<string> {
  const runId = await newRun(api, token, projectId, 'agent-task-report', `${outcome} run`);
  await expectOk(
    'evidence',
    api('POST', `/runs/${runId}/evidence`, {
      token,
      body: { kind: 'log', label: 'agent log', content: 'step 1 ok\n' },
    }),
  );
  await expectOk(
    'submission',
    api('POST', `/runs/${runId}/submission`, { token, body: REPORTS[outcome] }),
  );
  await expectOk('audit', api('POST', `/runs/${runId}/audit`, { token }));
  const verdict = await api<{ outcome: string }>('GET', `/runs/${runId}/verdict`, { token });
  if (verdict.body.outcome !== outcome)
    throw new Error(`the ${outcome} report audited to ${verdict.text}`);
  return runId;
}

/** A run with the given verdict, approved and minted. */
export async function receiptedRun(api: Api, token: string, projectId: string, outcome: Outcome) {
  const runId = await auditedRun(api, token, projectId, outcome);
  await decide(api, token, runId, 'approved');
  return { runId, receipt: await mint(api, token, runId) };
}

export interface Receipted {
  runId: string;
  receipt: MintedReceipt;
}

export async function keysOf(file: string): Promise<TrustedKey[]> {
  return parseKeysDocument(JSON.parse(await readFile(file, 'utf8')) as unknown);
}
