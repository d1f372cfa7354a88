import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import {
  AGENT_REPORT,
  SUPPORT_REPLY,
  mint,
  newProject,
  newRun,
  sharePath,
  type MintedReceipt,
} from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Check {
  id: string;
  key: string;
  status: string;
  kind: string;
}

describe('a run from creation to a shared, verified receipt', () => {
  let server: TestServer;
  let api: Api;
  let ada: SignedIn;
  let projectId: string;
  let first: MintedReceipt;

  beforeAll(async () => {
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    ada = await signIn(api, 'ada@example.com');
    projectId = await newProject(api, ada.token, 'Reports');
  });
  afterAll(() => server.close());

  it('lists the built-in flight sheets and filters them by lane', async () => {
    const all = await api<{ flight_sheets: Array<{ slug: string; lane: string }> }>(
      'GET',
      '/flight-sheets',
      { token: ada.token },
    );
    expect(all.status).toBe(200);
    expect(all.body.flight_sheets.map((s) => s.slug)).toEqual(
      expect.arrayContaining(['agent-task-report', 'support-reply', 'invoice-extraction']),
    );
    const agent = await api<{ flight_sheets: Array<{ lane: string }> }>(
      'GET',
      '/flight-sheets?lane=agent',
      { token: ada.token },
    );
    expect(agent.body.flight_sheets.length).toBeGreaterThanOrEqual(2);
    expect(agent.body.flight_sheets.every((s) => s.lane === 'agent')).toBe(true);
    const bySlug = await api<{ slug: string; sha256: string }>(
      'GET',
      '/flight-sheets/support-reply',
      { token: ada.token },
    );
    expect(bySlug.body.slug).toBe('support-reply');
  });

  it('an all-auto sheet: the audit answers the verdict at once and the receipt verifies', async () => {
    const runId = await newRun(api, ada.token, projectId, 'agent-task-report', 'nightly report');

    const draft = await api<Record<string, unknown>>('GET', `/runs/${runId}`, {
      token: ada.token,
    });
    expect(draft.status).toBe(200);
    expect(draft.body).toMatchObject({
      run: { id: runId, state: 'draft', project_id: projectId },
      flight_sheet: { slug: 'agent-task-report' },
      agent_profile: null,
      evidence: [],
      submission: null,
      checks: [],
      verdict: null,
      approval: null,
      receipt: null,
      incidents: [],
      ownership: { org_id: ada.orgId, project_id: projectId, created_by: ada.userId },
    });

    const log = await api<{ id: string; sha256: string; size: number }>(
      'POST',
      `/runs/${runId}/evidence`,
      { token: ada.token, body: { kind: 'log', label: 'agent log', content: 'héllo\n' } },
    );
    expect(log.status).toBe(201);
    expect(log.body.size).toBe(Buffer.byteLength('héllo\n'));

    const submitted = await api<{ sha256: string; body: unknown }>(
      'POST',
      `/runs/${runId}/submission`,
      { token: ada.token, body: AGENT_REPORT },
    );
    expect(submitted.status).toBe(201);
    const read = await api('GET', `/runs/${runId}/submission`, { token: ada.token });
    expect(read.body).toEqual(submitted.body);

    const audit = await api<{
      deterministic: boolean;
      needs_grading: boolean;
      verdict: { outcome: string; score: number };
      checks: Check[];
    }>('POST', `/runs/${runId}/audit`, { token: ada.token });
    expect(audit.status).toBe(200);
    expect(audit.body).toMatchObject({
      deterministic: true,
      needs_grading: false,
      verdict: { outcome: 'pass', score: 100 },
    });
    expect(audit.body.checks.every((c) => c.status === 'pass')).toBe(true);
    const verdict = await api('GET', `/runs/${runId}/verdict`, { token: ada.token });
    expect(verdict.body).toEqual(audit.body.verdict);
    expect((await api('GET', `/runs/${runId}/flags`, { token: ada.token })).body).toEqual({
      flags: [],
    });

    const approval = await api<{ decision: string; decided_by: string }>(
      'POST',
      `/runs/${runId}/approve`,
      { token: ada.token, body: { decision: 'approved', note: 'ship it' } },
    );
    expect(approval.status).toBe(200);
    expect(approval.body).toMatchObject({ decision: 'approved', decided_by: ada.userId });

    first = await mint(api, ada.token, runId);
    expect(first.org_seq).toBe(0);
    expect(first.parent_hash).toBe('0'.repeat(64));
    expect(first.receipt_id).toMatch(/^rcpt-000000-[0-9a-f]{8}$/);
    expect(first.share_url).toBe(`http://runledger.test/share/${first.share_token}`);
    expect(first.pdf_url).toBe(`${first.share_url}/pdf`);

    const again = await api<MintedReceipt>('POST', `/runs/${runId}/receipt`, {
      token: ada.token,
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first);

    const composite = await api<Record<string, unknown>>('GET', `/runs/${runId}`, {
      token: ada.token,
    });
    expect(composite.body).toMatchObject({
      run: { state: 'receipted' },
      receipt: first,
      approval: { decision: 'approved', note: 'ship it' },
      verdict: audit.body.verdict,
    });
  });

  it('a sheet with checklist rules: grade each open check, finalize, approve, mint', async () => {
    const runId = await newRun(api, ada.token, projectId, 'support-reply', 'ticket T-1042');
    await api('POST', `/runs/${runId}/evidence`, {
      token: ada.token,
      body: { kind: 'text', label: 'conversation', content: 'How do I export my invoices?' },
    });
    await api('POST', `/runs/${runId}/submission`, { token: ada.token, body: SUPPORT_REPLY });

    const audit = await api<{ deterministic: boolean; needs_grading: boolean; checks: Check[] }>(
      'POST',
      `/runs/${runId}/audit`,
      { token: ada.token },
    );
    expect(audit.body).toMatchObject({ deterministic: false, needs_grading: true });
    expect(audit.body).not.toHaveProperty('verdict');
    const open = audit.body.checks.filter((c) => c.status === 'open');
    expect(open.map((c) => c.key)).toEqual([
      'answers_the_question',
      'claims_are_accurate',
      'escalation_is_right',
      'tone_fits',
    ]);
    expect(
      (await api<{ run: { state: string } }>('GET', `/runs/${runId}`, { token: ada.token })).body
        .run.state,
    ).toBe('audited');

    for (const check of open) {
      const status = check.key === 'tone_fits' ? 'flag' : 'pass';
      const graded = await api<Check>('PATCH', `/runs/${runId}/checks/${check.id}`, {
        token: ada.token,
        body: { status },
      });
      expect(graded.status).toBe(200);
      expect(graded.body).toMatchObject({ id: check.id, status });
    }
    const flags = await api<{ flags: Array<{ key: string }> }>('GET', `/runs/${runId}/flags`, {
      token: ada.token,
    });
    expect(flags.body.flags.map((f) => f.key)).toEqual(['tone_fits']);

    const findings = await api<{ outcome: string; severity: string }>(
      'POST',
      `/runs/${runId}/findings`,
      { token: ada.token },
    );
    expect(findings.status).toBe(200);
    expect(findings.body.severity).toBe('honey');
    const repeat = await api('POST', `/runs/${runId}/findings`, { token: ada.token });
    expect(repeat.body).toEqual(findings.body);

    await api('POST', `/runs/${runId}/approve`, {
      token: ada.token,
      body: { decision: 'approved' },
    });
    const second = await mint(api, ada.token, runId);
    expect(second.org_seq).toBe(1);
    expect(second.parent_hash).toBe(first.receipt_sha256);
  });

  it('the ledger lists both receipts in org_seq order and verifies', async () => {
    const ledger = await api<{ entries: Array<{ org_seq: number }>; next: string | null }>(
      'GET',
      '/ledger',
      { token: ada.token },
    );
    expect(ledger.body.entries.map((e) => e.org_seq)).toEqual([0, 1]);
    expect(ledger.body.entries[0]).toMatchObject({
      receipt_id: first.receipt_id,
      receipt_sha256: first.receipt_sha256,
    });
    const verify = await api('GET', '/ledger/verify', { token: ada.token });
    expect(verify.body).toEqual({ ok: true, receipts_checked: 2, errors: [] });
    const recent = await api<{ receipts: Array<{ org_seq: number }> }>('GET', '/receipts/recent', {
      token: ada.token,
    });
    expect(recent.body.receipts.map((r) => r.org_seq)).toEqual([1, 0]);
  });

  it('the share view needs no credential and says verified: true', async () => {
    const shared = await api<{
      receipt_id: string;
      verified: boolean;
      payload: { org_seq: number };
    }>('GET', sharePath(first.share_url));
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({
      receipt_id: first.receipt_id,
      org_seq: 0,
      receipt_sha256: first.receipt_sha256,
      verified: true,
      payload: { v: 1, type: 'run_receipt', org_seq: 0, run: { title: 'nightly report' } },
    });
    expect(shared.headers.get('cache-control')).toBe('no-store');
  });

  it('the PDF starts with %PDF and carries the receipt id', async () => {
    const pdf = await api('GET', sharePath(first.pdf_url));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = Buffer.from(pdf.bytes).toString('latin1');
    expect(text).toContain(first.receipt_id);
    expect(text).toContain('(verified)');
    expect(text).not.toContain('NOT VERIFIED');
  });

  it('an unknown share token is a 404 for the JSON, the page and the PDF', async () => {
    const token = 'A'.repeat(43);
    expect((await api('GET', `/share/${token}`)).status).toBe(404);
    expect((await api('GET', `/share/${token}`, { headers: { accept: 'text/html' } })).status).toBe(
      404,
    );
    expect((await api('GET', `/share/${token}/pdf`)).status).toBe(404);
  });
});
