import { verifyExportLines } from '@runledger/verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { approvedRun, newProject, type MintedReceipt } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const N = 50;

interface Entry {
  receipt_id: string;
  org_seq: number;
  parent_hash: string;
  receipt_sha256: string;
}

describe('the ledger after 50 concurrent mints', () => {
  let server: TestServer;
  let api: Api;
  let ada: SignedIn;
  let minted: MintedReceipt[];

  beforeAll(async () => {
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    ada = await signIn(api, 'ada@example.com');
    const projectId = await newProject(api, ada.token);
    const runs: string[] = [];
    for (let i = 0; i < N; i += 1) runs.push(await approvedRun(api, ada.token, projectId));
    const answers = await Promise.all(
      runs.map((runId) =>
        api<MintedReceipt>('POST', `/runs/${runId}/receipt`, { token: ada.token }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(N).fill(201));
    minted = answers.map((a) => a.body);
  });
  afterAll(() => server.close());

  it('hands out org_seq 0..49 exactly once each, every receipt linked to the one before', () => {
    const bySeq = [...minted].sort((a, b) => a.org_seq - b.org_seq);
    expect(bySeq.map((r) => r.org_seq)).toEqual(Array.from({ length: N }, (_, i) => i));
    bySeq.forEach((receipt, i) => {
      expect(receipt.parent_hash).toBe(i === 0 ? '0'.repeat(64) : bySeq[i - 1]?.receipt_sha256);
    });
  });

  it('verifies over the whole chain', async () => {
    const result = await api('GET', '/ledger/verify', { token: ada.token });
    expect(result.body).toEqual({ ok: true, receipts_checked: N, errors: [] });
  });

  it('pages /ledger by after_seq, visiting every entry once in org_seq order', async () => {
    const seen: Entry[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const query: string = after === null ? '?limit=20' : `?limit=20&after_seq=${after}`;
      const page = await api<{ entries: Entry[]; next: string | null }>('GET', `/ledger${query}`, {
        token: ada.token,
      });
      expect(page.status).toBe(200);
      seen.push(...page.body.entries);
      after = page.body.next;
      pages += 1;
    } while (after !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen.map((e) => e.org_seq)).toEqual(Array.from({ length: N }, (_, i) => i));
    expect(seen[0]).not.toHaveProperty('payload');
  });

  it.each(['-1', 'abc', '', '1.5', '1e3'])('refuses ?after_seq=%s with 400', async (value) => {
    const response = await api('GET', `/ledger?after_seq=${value}`, { token: ada.token });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ detail: expect.stringContaining('after_seq') });
  });

  it('lists recent receipts newest first, paged by before_seq', async () => {
    const first = await api<{ receipts: MintedReceipt[]; next: string | null }>(
      'GET',
      '/receipts/recent?limit=5',
      { token: ada.token },
    );
    expect(first.body.receipts.map((r) => r.org_seq)).toEqual([49, 48, 47, 46, 45]);
    expect(first.body.receipts[0]?.share_url).toMatch(/^http:\/\/runledger\.test\/share\//);
    const second = await api<{ receipts: MintedReceipt[] }>(
      'GET',
      `/receipts/recent?limit=5&before_seq=${first.body.next}`,
      { token: ada.token },
    );
    expect(second.body.receipts.map((r) => r.org_seq)).toEqual([44, 43, 42, 41, 40]);
  });

  it('also pages both lists with the generic ?after=<next>, as every other list does', async () => {
    const ledger = await api<{ entries: Entry[] }>('GET', '/ledger?limit=2&after=10', {
      token: ada.token,
    });
    expect(ledger.body.entries.map((e) => e.org_seq)).toEqual([11, 12]);
    const recent = await api<{ receipts: MintedReceipt[] }>(
      'GET',
      '/receipts/recent?limit=2&after=10',
      {
        token: ada.token,
      },
    );
    expect(recent.body.receipts.map((r) => r.org_seq)).toEqual([9, 8]);
  });

  it('exports NDJSON that the offline verifier accepts, strictly', async () => {
    const response = await api('GET', '/ledger/export', { token: ada.token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = response.text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(N + 1);
    const header = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    const head = minted.find((r) => r.org_seq === N - 1);
    expect(header).toMatchObject({
      format: 'runledger.ledger/v1',
      org_id: ada.orgId,
      count: N,
      head_sha256: head?.receipt_sha256,
    });
    const result = await verifyExportLines(lines, { strict: true });
    expect(result).toMatchObject({ ok: true, receipts_checked: N, errors: [] });
  });

  it('shows another organization an empty, valid ledger', async () => {
    const eve = await signIn(api, 'eve@example.com');
    expect((await api('GET', '/ledger', { token: eve.token })).body).toEqual({
      entries: [],
      next: null,
    });
    expect((await api('GET', '/ledger/verify', { token: eve.token })).body).toEqual({
      ok: true,
      receipts_checked: 0,
      errors: [],
    });
    const exported = await api('GET', '/ledger/export', { token: eve.token });
    const lines = exported.text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ org_id: eve.orgId, count: 0 });
  });

  it('needs a credential for every ledger route', async () => {
    for (const path of ['/ledger', '/ledger/verify', '/ledger/export', '/receipts/recent']) {
      expect((await api('GET', path)).status).toBe(401);
    }
  });
});

describe('minting the same run concurrently, under a configured RECEIPT_PREFIX', () => {
  let server: TestServer;
  let api: Api;
  let ada: SignedIn;

  beforeAll(async () => {
    server = await startTestServer({ RECEIPT_PREFIX: 'acme' });
    ({ api } = await apiClient(server.url));
    ada = await signIn(api, 'ada@example.com');
  });
  afterAll(() => server.close());

  it('answers one 201 and 200s with the same receipt, and the chain grows by one', async () => {
    const runId = await approvedRun(api, ada.token, await newProject(api, ada.token));
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        api<MintedReceipt>('POST', `/runs/${runId}/receipt`, { token: ada.token }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers[0]?.body.receipt_id).toMatch(/^acme-000000-[0-9a-f]{8}$/);
    const ledger = await api<{ entries: unknown[] }>('GET', '/ledger', { token: ada.token });
    expect(ledger.body.entries).toHaveLength(1);
  });

  it('verifies with the configured prefix and names it in the export header', async () => {
    const verify = await api('GET', '/ledger/verify', { token: ada.token });
    expect(verify.body).toEqual({ ok: true, receipts_checked: 1, errors: [] });
    const exported = await api('GET', '/ledger/export', { token: ada.token });
    const lines = exported.text.split('\n').filter(Boolean);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ receipt_prefix: 'acme', count: 1 });
    expect((await verifyExportLines(lines, { strict: true })).ok).toBe(true);
  });
});
