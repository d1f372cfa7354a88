import type { Api } from './openapi.js';

/** A consistent report for the built-in all-auto sheet `agent-task-report` (needs one `log` evidence item). */
export const AGENT_REPORT = {
  task: 'Summarize the quarterly incident reports',
  status: 'completed',
  agent: { name: 'scribe', model: 'm-1' },
  steps: [
    { name: 'fetch reports', tool: 'http', outcome: 'ok', duration_ms: 1200, cost_usd: '0.10' },
    { name: 'summarize', tool: 'llm', outcome: 'ok', duration_ms: 5400, cost_usd: 0.2 },
  ],
  totals: { cost_usd: '0.30', duration_ms: 6600 },
  budget_usd: '1.00',
  summary: 'Four incidents, all resolved.',
};

/** A good reply for the built-in sheet `support-reply` (auto rules plus four checklist rules). */
export const SUPPORT_REPLY = {
  ticket_id: 'T-1042',
  language: 'en',
  customer_message: 'How do I export my invoices?',
  reply: { subject: 'Exporting invoices', body: 'Open Billing, choose Invoices and press Export.' },
  escalate: false,
  cited_articles: [{ title: 'Exporting invoices', url: 'https://help.example.com/export' }],
};

export interface RunSummary {
  id: string;
  state: string;
}

function expectStatus(what: string, actual: number, expected: number, text: string): void {
  if (actual !== expected) throw new Error(`${what}: expected ${expected}, got ${actual} ${text}`);
}

export async function newProject(api: Api, token: string, name = 'project'): Promise<string> {
  const created = await api<{ id: string }>('POST', '/projects', { token, body: { name } });
  expectStatus('POST /projects', created.status, 201, created.text);
  return created.body.id;
}

export async function newRun(
  api: Api,
  token: string,
  projectId: string,
  sheet = 'agent-task-report',
  title = 'nightly report',
): Promise<string> {
  const created = await api<RunSummary>('POST', '/runs', {
    token,
    body: { project_id: projectId, flight_sheet_id: sheet, title },
  });
  expectStatus('POST /runs', created.status, 201, created.text);
  return created.body.id;
}

/** An all-auto run with its log and submission, audited: state finalized, verdict pass. */
export async function finalizedRun(api: Api, token: string, projectId: string): Promise<string> {
  const runId = await newRun(api, token, projectId);
  const evidence = await api('POST', `/runs/${runId}/evidence`, {
    token,
    body: { kind: 'log', label: 'agent log', content: 'step 1 ok\nstep 2 ok\n' },
  });
  expectStatus('POST evidence', evidence.status, 201, evidence.text);
  const submitted = await api('POST', `/runs/${runId}/submission`, { token, body: AGENT_REPORT });
  expectStatus('POST submission', submitted.status, 201, submitted.text);
  const audited = await api('POST', `/runs/${runId}/audit`, { token });
  expectStatus('POST audit', audited.status, 200, audited.text);
  return runId;
}

export async function decide(
  api: Api,
  token: string,
  runId: string,
  decision: 'approved' | 'rejected' | 'escalated',
  note?: string,
): Promise<void> {
  const decided = await api('POST', `/runs/${runId}/approve`, {
    token,
    body: { decision, ...(note !== undefined ? { note } : {}) },
  });
  expectStatus(`approve ${decision}`, decided.status, 200, decided.text);
}

/** A finalized all-auto run approved by `token`'s person: ready to mint. */
export async function approvedRun(api: Api, token: string, projectId: string): Promise<string> {
  const runId = await finalizedRun(api, token, projectId);
  await decide(api, token, runId, 'approved', 'looks right');
  return runId;
}

export interface MintedReceipt {
  receipt_id: string;
  org_seq: number;
  parent_hash: string;
  receipt_sha256: string;
  share_token: string;
  share_url: string;
  pdf_url: string;
}

export async function mint(api: Api, token: string, runId: string): Promise<MintedReceipt> {
  const minted = await api<MintedReceipt>('POST', `/runs/${runId}/receipt`, { token });
  expectStatus('POST receipt', minted.status, 201, minted.text);
  return minted.body;
}

/** The path part of a share_url (tests talk to the server's own address, not PUBLIC_BASE_URL). */
export const sharePath = (shareUrl: string) => new URL(shareUrl).pathname;
