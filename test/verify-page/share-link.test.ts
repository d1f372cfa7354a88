import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyPage } from '../../verify-tool/src/web/build.js';
import { signIn } from '../helpers/auth.js';
import { launchBrowser } from '../helpers/browser.js';
import { apiClient } from '../helpers/openapi.js';
import { approvedRun, mint, newProject, sharePath, type MintedReceipt } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { tamperPdfBundle } from './files.js';
import {
  offlinePage,
  readResult,
  sameVerdicts,
  servedVerifyPage,
  verifyIn,
  type Shown,
} from './page.js';

const PASSED = '✓ passed';
const FAILED = '✗ FAILED';
const SHARE_CHECKS = [
  'Share document readable',
  'Payload hash',
  'Receipt id and position',
  'Checkpoint origin, size and root',
  'Inclusion in the signed tree',
  'Signature by a trusted key',
];

/** From a receipt's share link or its PDF, to the verdict: issue 14's "receipt PDF's share link bundle". */
describe('the verify page, from a receipt’s share link or PDF', () => {
  let server: TestServer;
  let receipt: MintedReceipt;
  let publishedKeys: string;
  let pdf: Uint8Array;
  let browser: Browser;
  let singleFile: string;
  let work: string;
  const errors: string[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'runledger-share-link-'));
    await buildVerifyPage();
    singleFile = `${(await buildVerifyPage(`${work}/saved/`)).outDir}verify.html`;
    server = await startTestServer();
    const { api } = await apiClient(server.url);
    const ada = await signIn(api, 'ada@example.com');
    const projectId = await newProject(api, ada.token);
    await mint(api, ada.token, await approvedRun(api, ada.token, projectId));
    receipt = await mint(api, ada.token, await approvedRun(api, ada.token, projectId));
    const keys = await api('GET', '/.well-known/runledger-keys.json');
    expect(keys.status).toBe(200);
    publishedKeys = keys.text;
    const answer = await api('GET', sharePath(receipt.pdf_url));
    expect(answer.status).toBe(200);
    pdf = answer.bytes;
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rm(work, { recursive: true, force: true });
  });

  const servedPage = () => servedVerifyPage(browser, server.url, errors);

  async function verifyLink(page: Page, link: string, keys = ''): Promise<void> {
    await page.locator('#result').evaluate((el: { hidden: boolean }) => {
      el.hidden = true;
    });
    await page.fill('#share-link', link);
    await page.fill('#keys', keys);
    await page.click('#verify-link');
  }

  const expectVerified = (shown: Shown) => {
    expect(shown.verdictClass).toBe('verdict intact');
    expect(shown.verdict).toBe(
      `INTACT: receipt ${receipt.receipt_id} is in the signed ledger, every check passed`,
    );
    expect(shown.checks).toEqual(Object.fromEntries(SHARE_CHECKS.map((c) => [c, PASSED])));
    expect(shown.authorship).toMatch(/^AUTHORSHIP VERIFIED: the checkpoint is signed by /);
  };

  it('fetches the share JSON of a link to the deployment serving it, without credentials, and verifies it with the published keys', async () => {
    const page = await servedPage();
    const asked: { url: string; accept: string | undefined; cookie: string | undefined }[] = [];
    page.on('request', (request) => {
      const headers = request.headers();
      if (request.url().includes('/share/'))
        asked.push({ url: request.url(), accept: headers.accept, cookie: headers.cookie });
    });
    await verifyLink(page, `${server.url}${sharePath(receipt.share_url)}`, publishedKeys);
    expectVerified(await readResult(page));
    // The PDF's link is the same receipt: its share JSON is fetched, not the PDF.
    await verifyLink(page, `${server.url}${sharePath(receipt.pdf_url)}`, publishedKeys);
    expectVerified(await readResult(page));
    const json = `${server.url}${sharePath(receipt.share_url)}`;
    expect(asked).toEqual([
      { url: json, accept: 'application/json', cookie: undefined },
      { url: json, accept: 'application/json', cookie: undefined },
    ]);
    asked.length = 0;
    // Without a key the same link is checked against its own checkpoint, and says so; Enter in the
    // link field verifies the link.
    await page.locator('#result').evaluate((el: { hidden: boolean }) => {
      el.hidden = true;
    });
    await page.fill('#keys', '');
    await page.fill('#share-link', json);
    await page.press('#share-link', 'Enter');
    const unkeyed = await readResult(page);
    expect(unkeyed.verdictClass).toBe('verdict intact');
    expect(unkeyed.authorship).toMatch(/^AUTHORSHIP NOT CHECKED/);
    expect(asked).toHaveLength(1);
    await page.close();
  });

  it('says an unknown token of this deployment has no receipt', async () => {
    const page = await servedPage();
    await verifyLink(page, `${server.url}/share/shr_unknown0000000000000000`);
    await expect
      .poll(() => page.textContent('#status'))
      .toBe('Verification stopped: this deployment has no receipt at that link');
    expect(await page.isHidden('#result')).toBe(true);
    await page.close();
  });

  it('sends a link to another origin back to be downloaded there, fetching nothing', async () => {
    const page = await servedPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    // The receipt's own share_url names the deployment's public base URL, not this test server.
    await verifyLink(page, receipt.share_url);
    await expect
      .poll(() => page.textContent('#status'))
      .toBe(
        `This link is to http://runledger.test, and this page may fetch only from ${server.url}, the deployment serving it: open the link in a browser, download the share JSON there (or the receipt PDF) and drop it here.`,
      );
    expect(await page.isHidden('#result')).toBe(true);
    expect(requested).toEqual([]);
    await page.close();
  });

  it('verifies a dropped receipt PDF from its embedded share.json, with the published keys', async () => {
    const page = await servedPage();
    const transfer = await page.evaluateHandle(
      `(() => {
        const bytes = Uint8Array.from(atob(${JSON.stringify(Buffer.from(pdf).toString('base64'))}), (c) => c.charCodeAt(0));
        const t = new DataTransfer();
        t.items.add(new File([bytes], 'receipt.pdf', { type: 'application/pdf' }));
        return t;
      })()`,
    );
    await page.dispatchEvent('#drop', 'drop', { dataTransfer: transfer });
    await expect
      .poll(() => page.textContent('#status'))
      .toBe('receipt.pdf is ready: press Verify.');
    await page.fill('#keys', publishedKeys);
    await page.click('#run');
    const shown = await readResult(page);
    expectVerified(shown);
    expect(await page.textContent('#facts')).toContain('Read fromshare.json embedded in the PDF');
    await page.close();
  });

  it('names the failing check of a PDF whose embedded share JSON was edited, and refuses a PDF without one', async () => {
    const page = await servedPage();
    const tampered = tamperPdfBundle(pdf, (json) =>
      json.replace('"note":"looks right"', '"note":"looks wrong"'),
    );
    const bad = await verifyIn(page, { name: 'receipt.pdf', text: tampered }, publishedKeys);
    expect(bad.verdictClass).toBe('verdict tampered');
    expect(bad.checks['Payload hash']).toBe(FAILED);
    expect(bad.findings).toEqual([
      [
        'Payload hash (hash_mismatch)',
        '',
        receipt.receipt_id,
        '',
        expect.stringMatching(/^the payload hashes to [0-9a-f]{64}, receipt_sha256 is /) as string,
      ],
    ]);
    // Same length, other name: a PDF that carries no share.json.
    const bare = Buffer.from(
      Buffer.from(pdf).toString('latin1').replaceAll('(share.json)', '(other.json)'),
      'latin1',
    );
    const none = await verifyIn(page, { name: 'receipt.pdf', text: bare });
    expect(none.verdictClass).toBe('verdict unreadable');
    expect(none.findings[0]?.[0]).toBe('Share document readable (no_bundle)');
    expect(none.findings[0]?.[4]).toMatch(
      /^this PDF carries no embedded share\.json: .* drop that here$/,
    );
    await page.close();
  });

  it('gives the same verdicts saved as one file, offline, and there sends every link back to be downloaded', async () => {
    const { page, context, requested } = await offlinePage(browser, singleFile, errors);
    const served = await servedPage();
    const tampered = tamperPdfBundle(pdf, (json) => json.replace('"score":', '"score":1'));
    const file = (text: Uint8Array) => ({ name: 'receipt.pdf', text });
    const verdicts = await sameVerdicts(page, served, [
      [file(pdf), publishedKeys],
      [file(pdf), ''],
      [file(tampered), publishedKeys],
    ]);
    expect(verdicts).toEqual(['verdict intact', 'verdict intact', 'verdict tampered']);
    await verifyLink(page, `${server.url}${sharePath(receipt.share_url)}`);
    await expect
      .poll(() => page.textContent('#status'))
      .toMatch(/^This page is a saved file and fetches nothing: open the link in a browser/);
    expect(requested).toEqual([]);
    await context.close();
    await served.close();
  });

  it('logged no console or page errors (CSP violations included)', () => {
    expect(errors).toEqual([]);
  });
});
