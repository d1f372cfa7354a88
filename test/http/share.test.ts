import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import {
  AGENT_REPORT,
  decide,
  mint,
  newProject,
  newRun,
  sharePath,
  type MintedReceipt,
} from '../helpers/runs.js';
import { openRawDb } from '../helpers/sqlite.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>';

describe('the public share view', () => {
  let server: TestServer;
  let api: Api;
  let ada: SignedIn;
  let receipt: MintedReceipt;

  beforeAll(async () => {
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    ada = await signIn(api, 'ada@example.com');
    const runId = await newRun(
      api,
      ada.token,
      await newProject(api, ada.token),
      'agent-task-report',
      HOSTILE,
    );
    await api('POST', `/runs/${runId}/evidence`, {
      token: ada.token,
      body: { kind: 'log', label: HOSTILE, content: 'ok' },
    });
    await api('POST', `/runs/${runId}/submission`, { token: ada.token, body: AGENT_REPORT });
    await api('POST', `/runs/${runId}/audit`, { token: ada.token });
    await decide(api, ada.token, runId, 'approved', HOSTILE);
    receipt = await mint(api, ada.token, runId);
  });
  afterAll(() => server.close());

  it('answers JSON by default, with no credential, and keeps the page out of caches and indexes', async () => {
    const shared = await api<{ payload: { run: { title: string } }; verified: boolean }>(
      'GET',
      sharePath(receipt.share_url),
    );
    expect(shared.status).toBe(200);
    expect(shared.headers.get('content-type')).toMatch(/^application\/json/);
    expect(shared.body.payload.run.title).toBe(HOSTILE);
    expect(shared.body.verified).toBe(true);
    expect(shared.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(shared.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('gives a browser a readable page that escapes every stored string and runs no script', async () => {
    const page = await api('GET', sharePath(receipt.share_url), {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+';/);
    expect(csp).not.toMatch(/script-src|unsafe-inline/);
    expect(page.text).not.toMatch(/<script|<img|onerror=alert\(1\)>/i);
    expect(page.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(page.text).toContain(receipt.receipt_id);
    expect(page.text).toContain(receipt.receipt_sha256);
    expect(page.text).toMatch(
      /Verified as of \d+ \w+ \d{4}, [\d:]+ UTC: the receipt is exactly as it was issued\./,
    );
    expect(page.text).toContain(`href="${receipt.pdf_url}"`);
    expect(page.text).toMatch(/<svg [^>]*aria-label="QR code of the share link"/);
  });

  it('serves the PDF inline under the receipt id, with the receipt id and hash in its metadata', async () => {
    const pdf = await api('GET', sharePath(receipt.pdf_url));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-disposition')).toBe(
      `inline; filename="${receipt.receipt_id}.pdf"`,
    );
    const text = Buffer.from(pdf.bytes).toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    expect(text).toContain(`runledger receipt ${receipt.receipt_id}`);
    expect(text).toContain(receipt.receipt_sha256);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
  });

  it('attaches the share JSON to the PDF as share.json, byte for byte the JSON answer', async () => {
    const pdf = await api('GET', sharePath(receipt.pdf_url));
    const json = await fetch(`${server.url}${sharePath(receipt.share_url)}`, {
      headers: { accept: 'application/json' },
    });
    const answer = await json.text();
    const dir = await mkdtemp(join(tmpdir(), 'runledger-pdf-bundle-'));
    try {
      await writeFile(join(dir, 'receipt.pdf'), pdf.bytes);
      // poppler's own reader, not ours: the attachment is a real PDF embedded file.
      const list = execFileSync('pdfdetach', ['-list', 'receipt.pdf'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(list.trim().split('\n')).toEqual([
        '2 embedded files',
        '1: receipt.tlog-proof',
        '2: share.json',
      ]);
      execFileSync('pdfdetach', ['-saveall', 'receipt.pdf'], { cwd: dir });
      const attached = await readFile(join(dir, 'share.json'), 'utf8');
      expect(attached).toBe(answer);
      // The second attachment is the receipt's C2SP tlog-proof, the same as GET …/tlog-proof.
      const proof = await fetch(`${server.url}${sharePath(receipt.share_url)}/tlog-proof`);
      expect(await readFile(join(dir, 'receipt.tlog-proof'), 'utf8')).toBe(await proof.text());
      const doc = JSON.parse(attached) as Record<string, unknown>;
      expect(doc).toMatchObject({ receipt_id: receipt.receipt_id, verified: true });
      expect(Object.keys(doc)).toEqual(expect.arrayContaining(['checkpoint', 'inclusion_proof']));
      // The printed pages say so, where they explain how to check the receipt.
      const printed = execFileSync('pdftotext', ['receipt.pdf', '-'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(printed.replace(/\s+/g, ' ')).toContain(
        'This PDF carries the share JSON as its attached file share.json: drop the PDF itself on',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names the project and the approver from the organization’s records, keeping the ids', async () => {
    const page = await api('GET', sharePath(receipt.share_url), {
      headers: { accept: 'text/html' },
    });
    expect(page.text).toMatch(/<bdi>project<\/bdi> <span class="muted">\(<code>prj_/);
    expect(page.text).toContain(
      `<strong><bdi>ada@example.com</bdi></strong> <span class="muted">(<code>${ada.userId}</code>)`,
    );
  });

  it('never shows another organization’s person, whatever id a payload names', async () => {
    const eve = await signIn(api, 'eve@example.com');
    const db = await openRawDb(server.dataDir);
    const changed = await db.run(
      `UPDATE receipts SET payload_text = replace(payload_text, ?, ?) WHERE receipt_id = ?`,
      [`"decided_by":"${ada.userId}"`, `"decided_by":"${eve.userId}"`, receipt.receipt_id],
    );
    await db.close();
    expect(changed).toBe(1);
    const page = await api('GET', sharePath(receipt.share_url), {
      headers: { accept: 'text/html' },
    });
    expect(page.text).toContain('NOT VERIFIED');
    expect(page.text).toContain(eve.userId);
    expect(page.text).not.toContain('eve@example.com');
  });

  it('never reveals the share token of a receipt to another organization', async () => {
    const eve = await signIn(api, 'eve@example.com');
    const recent = await api<{ receipts: unknown[] }>('GET', '/receipts/recent', {
      token: eve.token,
    });
    expect(recent.body.receipts).toEqual([]);
  });
});
