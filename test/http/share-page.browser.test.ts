import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { collectPageErrors, launchBrowser, VIEWPORTS } from '../helpers/browser.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import {
  AGENT_REPORT,
  approvedRun,
  decide,
  mint,
  newProject,
  newRun,
  sharePath,
  type MintedReceipt,
} from '../helpers/runs.js';
import { openRawDb } from '../helpers/sqlite.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const NON_LATIN = {
  project: 'Проект 報告',
  title: 'Отчёт — 事故まとめ ✓ café',
  label: 'журнал שלום',
  note: 'مرحبا بالعالم — geprüft ✓',
};

/** Screenshots go to a temporary folder (printed), never into the repository. */
const shots = mkdtempSync(join(tmpdir(), 'runledger-share-shots-'));

describe('the share page in Chromium', () => {
  let server: TestServer;
  let api: Api;
  let ada: SignedIn;
  let browser: Browser;
  const receipts: Record<'verified' | 'tampered' | 'nonLatin', MintedReceipt> = {} as never;

  beforeAll(async () => {
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    ada = await signIn(api, 'ada@example.com');
    const latin = await newProject(api, ada.token, 'Quarterly reports');
    receipts.verified = await mint(api, ada.token, await approvedRun(api, ada.token, latin));
    receipts.tampered = await mint(api, ada.token, await approvedRun(api, ada.token, latin));

    const project = await newProject(api, ada.token, NON_LATIN.project);
    const runId = await newRun(api, ada.token, project, 'agent-task-report', NON_LATIN.title);
    await api('POST', `/runs/${runId}/evidence`, {
      token: ada.token,
      body: { kind: 'log', label: NON_LATIN.label, content: 'ok' },
    });
    await api('POST', `/runs/${runId}/submission`, { token: ada.token, body: AGENT_REPORT });
    await api('POST', `/runs/${runId}/audit`, { token: ada.token });
    await decide(api, ada.token, runId, 'approved', NON_LATIN.note);
    receipts.nonLatin = await mint(api, ada.token, runId);

    // Behind the server's back: one changed score in the stored payload.
    const db = await openRawDb(server.dataDir);
    const changed = await db.run(
      `UPDATE receipts SET payload_text = replace(payload_text, '"score":100', '"score":99') WHERE receipt_id = ?`,
      [receipts.tampered.receipt_id],
    );
    await db.close();
    expect(changed).toBe(1);
    browser = await launchBrowser();
    console.log(`share page screenshots: ${shots}`);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens a share link at one viewport; returns the page, its answer's headers and its errors. */
  async function open(receipt: MintedReceipt, viewport: keyof typeof VIEWPORTS) {
    const page: Page = await browser.newPage({ viewport: VIEWPORTS[viewport] });
    const errors = collectPageErrors(page);
    const answer = await page.goto(`${server.url}${sharePath(receipt.share_url)}`);
    return { page, errors, status: answer?.status(), headers: answer?.headers() ?? {} };
  }

  async function common(page: Page, name: string) {
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    expect(await page.locator('#legend').isVisible()).toBe(true);
    expect(await page.locator('dl dt').allTextContents()).toContain('Severity honey');
    expect(await page.locator('details#payload').getAttribute('open')).toBeNull();
    expect(await page.locator('details#payload pre').isVisible()).toBe(false);
    expect(await page.locator('time').first().getAttribute('datetime')).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
    );
    expect(await page.locator('#how-to').textContent()).toContain(
      'runledger-verify receipt share.json --key <vkey>',
    );
    // The organization's signed checkpoint, with its key id, and the receipt's place in the tree.
    const authorship = await page.locator('#authorship').textContent();
    expect(authorship).toMatch(
      /^Signed checkpoint: the organization’s ledger of \d+ receipts has root hash [0-9a-f]{64}, signed with the key whose key fingerprint \(key id\) is [0-9a-f]{8}; this receipt is leaf \d+ of that tree/,
    );
    expect(authorship).not.toContain('not yet proven');
  }

  for (const viewport of ['desktop', 'phone'] as const) {
    it(`shows a verified receipt with names, a legend and findings (${viewport})`, async () => {
      const { page, errors, status, headers } = await open(receipts.verified, viewport);
      expect(status).toBe(200);
      expect(headers['content-security-policy']).toMatch(
        /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; base-uri 'none'/,
      );
      await common(page, `verified-${viewport}`);
      expect(await page.locator('#verification').getAttribute('class')).toBe('ok');
      expect(await page.locator('#verification').textContent()).toMatch(
        /^Verified as of \d+ \w+ \d{4}, \d\d:\d\d:\d\d UTC/,
      );
      const body = (await page.locator('body').textContent()) ?? '';
      expect(body).toContain('Quarterly reports');
      expect(await page.locator('#approval').textContent()).toContain('ada@example.com');
      expect(await page.locator('table.checks').textContent()).not.toContain('Pass when');
      // Scrolling to the payload and opening it shows the exact JSON.
      await page.locator('details#payload summary').click();
      expect(await page.locator('details#payload pre').isVisible()).toBe(true);
      expect(errors).toEqual([]);
      await page.close();
    });

    it(`names the failed check of a tampered receipt and marks its content (${viewport})`, async () => {
      const { page, errors, status } = await open(receipts.tampered, viewport);
      expect(status).toBe(200);
      await common(page, `tampered-${viewport}`);
      expect(await page.locator('#verification').getAttribute('class')).toBe('bad');
      expect(await page.locator('#verification').textContent()).toMatch(
        /^NOT VERIFIED as of .* UTC: failed Content fingerprint\. The content below has been altered/,
      );
      expect(await page.locator('table.verification').textContent()).toContain('FAILED');
      expect(await page.locator('.altered').count()).toBe(1);
      expect(await page.locator('.altered #verdict').isVisible()).toBe(true);
      expect(errors).toEqual([]);
      await page.close();
    });

    it(`shows a non-Latin receipt's stored strings as they are (${viewport})`, async () => {
      const { page, errors } = await open(receipts.nonLatin, viewport);
      await common(page, `non-latin-${viewport}`);
      const body = (await page.locator('body').textContent()) ?? '';
      for (const value of Object.values(NON_LATIN)) expect(body).toContain(value);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('serves the non-Latin receipt as a PDF whose extracted text is what was stored', async () => {
    const pdf = await api('GET', sharePath(receipts.nonLatin.pdf_url));
    expect(pdf.status).toBe(200);
    const file = join(shots, 'non-latin.pdf');
    writeFileSync(file, Buffer.from(pdf.bytes));
    const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], {
      encoding: 'utf8',
    })
      .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
      .replace(/\s+/g, ' ');
    for (const value of [NON_LATIN.project, NON_LATIN.title]) expect(text).toContain(value);
    // The label ends in Hebrew inside a Latin line: drawn in bidi order (tokens.test.ts), while
    // pdftotext regroups the punctuation next to a right-to-left run, so each run is checked alone.
    expect(text).toMatch(/log · журнал .*שלום/);
    // The note is a right-to-left paragraph with a Latin run: pdftotext gives the runs in the order
    // they stand on the page (the trailing ✓ takes the paragraph's direction, so it is at the left).
    expect(text).toContain('Note ✓ geprüft — مرحبا بالعالم');
    expect(text).toContain(`Approved by ada@example.com (${ada.userId})`);
  });

  it('gives a browser an HTML 404 page for an unknown link while JSON clients keep JSON', async () => {
    const path = `/share/${'A'.repeat(43)}`;
    const page = await browser.newPage({ viewport: VIEWPORTS.phone });
    const errors = collectPageErrors(page);
    const answer = await page.goto(`${server.url}${path}`);
    expect(answer?.status()).toBe(404);
    expect(answer?.headers()['content-type']).toMatch(/^text\/html/);
    expect(answer?.headers()['content-security-policy']).toMatch(
      /^default-src 'none'; style-src 'sha256-/,
    );
    expect(await page.locator('h1').textContent()).toBe('Receipt not found');
    expect(await page.content()).not.toContain('A'.repeat(43));
    await page.screenshot({ path: join(shots, 'not-found-phone.png'), fullPage: true });
    // Chromium logs the document's own 404 status; anything else (a CSP violation) would be a defect.
    expect(errors).toEqual([
      'Failed to load resource: the server responded with a status of 404 (Not Found)',
    ]);
    await page.close();

    const json = await api<{ detail: string }>('GET', path, {
      headers: { accept: 'application/json' },
    });
    expect(json.status).toBe(404);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.body.detail).toBe('receipt not found');
  });
});
