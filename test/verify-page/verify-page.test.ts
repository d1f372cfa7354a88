import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyPage } from '../../verify-tool/src/web/build.js';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { collectPageErrors, launchBrowser, VIEWPORTS } from '../helpers/browser.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { approvedRun, mint, newProject, sharePath, type MintedReceipt } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  katKeysDocument,
  katVkey,
  signedExport,
  signedShare,
  strangerVkey,
  tamper,
  truncate,
} from './files.js';
import { offlinePage, readResult, sameVerdicts, servedVerifyPage, verifyIn } from './page.js';

const PASSED = '✓ passed';
const FAILED = '✗ FAILED';
const NOT_CHECKED = '– not checked';

describe('the verify page', () => {
  let server: TestServer;
  let api: Api;
  let ada: SignedIn;
  let minted: MintedReceipt[];
  let exported: string;
  let serverShare: string;
  /** The server's share JSON without its checkpoint and proof, as a share view without them reads. */
  let receiptOnly: string;
  let browser: Browser;
  let singleFile: string;
  let work: string;
  const errors: string[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'runledger-verify-page-'));
    // The page the server serves, and the single file in a folder of its own.
    await buildVerifyPage();
    singleFile = `${(await buildVerifyPage(`${work}/saved/`)).outDir}verify.html`;
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    ada = await signIn(api, 'ada@example.com');
    const projectId = await newProject(api, ada.token);
    minted = [];
    for (let i = 0; i < 3; i += 1) {
      minted.push(await mint(api, ada.token, await approvedRun(api, ada.token, projectId)));
    }
    const answer = await api('GET', '/ledger/export', { token: ada.token });
    expect(answer.status).toBe(200);
    exported = answer.text;
    const share = await api('GET', sharePath(minted[1]!.share_url));
    expect(share.status).toBe(200);
    serverShare = share.text;
    const {
      checkpoint: _c,
      inclusion_proof: _p,
      ...receipt
    } = JSON.parse(serverShare) as Record<string, unknown>;
    receiptOnly = JSON.stringify(receipt);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rm(work, { recursive: true, force: true });
  });

  const servedPage = () => servedVerifyPage(browser, server.url, errors);

  it('is served with a strict CSP and no inline script or style', async () => {
    const page = await fetch(`${server.url}/verify`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy');
    expect(csp).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    const html = await page.text();
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script src="/verify/app.js" defer>']);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/);
    const script = await fetch(`${server.url}/verify/app.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('verifySharedReceipt');
    const css = await fetch(`${server.url}/verify/app.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('passes every check of an export from the server, and says authorship was not checked', async () => {
    const page = await servedPage();
    const shown = await verifyIn(page, { name: 'ledger.ndjson', text: exported });
    expect(shown.verdictClass).toBe('verdict intact');
    expect(shown.verdict).toBe('INTACT: 3 receipts, every check passed');
    expect(shown.checks).toEqual({
      'Export complete and readable': PASSED,
      'Payload hashes': PASSED,
      'Chain links and order': PASSED,
      'Receipt ids and fields': PASSED,
      'Header count, head and organization': PASSED,
      // The export's header carries the server's signed checkpoint: its root is recomputed.
      'Merkle root against the signed checkpoint': PASSED,
      'Signature by a trusted key': NOT_CHECKED,
    });
    expect(shown.authorship).toMatch(/^AUTHORSHIP NOT CHECKED/);
    expect(shown.status).toContain('INTACT');
    expect(shown.findings).toEqual([]);
    await page.close();
  });

  it('names the failing check, line and receipt of a tampered export', async () => {
    const page = await servedPage();
    // Line 3 is org_seq 1: its approval note is changed after minting.
    const text = tamper(exported, 3, '"note":"looks right"', '"note":"looks wrong"');
    const shown = await verifyIn(page, { name: 'ledger.ndjson', text });
    expect(shown.verdictClass).toBe('verdict tampered');
    expect(shown.verdict).toMatch(/^TAMPERED: 1 finding/);
    expect(shown.checks['Payload hashes']).toBe(FAILED);
    expect(shown.checks['Chain links and order']).toBe(PASSED);
    expect(shown.findings).toEqual([
      [
        'Payload hashes (hash_mismatch)',
        '3',
        minted[1]!.receipt_id,
        '1',
        expect.stringContaining(minted[1]!.receipt_sha256) as string,
      ],
    ]);
    await page.close();
  });

  it('says a truncated export is truncated, and proves nothing from it', async () => {
    const page = await servedPage();
    const shown = await verifyIn(page, { name: 'ledger.ndjson', text: truncate(exported) });
    expect(shown.verdictClass).toBe('verdict unreadable');
    expect(shown.verdict).toBe('NOT VERIFIED: the export is truncated');
    expect(shown.checks['Export complete and readable']).toBe(FAILED);
    expect(shown.checks['Payload hashes']).toBe(NOT_CHECKED);
    expect(shown.findings[0]).toEqual([
      'Export complete and readable (truncated_input)',
      '',
      '',
      '',
      'line 4 is cut off: the export is truncated',
    ]);
    await page.close();
  });

  it('checks the signed export against a vkey or a keys document, and refuses a stranger’s key', async () => {
    const page = await servedPage();
    const file = { name: 'signed.ndjson', text: signedExport };
    for (const keys of [katVkey, katKeysDocument]) {
      const shown = await verifyIn(page, file, keys);
      expect(shown.verdict).toBe('INTACT: 3 receipts, every check passed');
      expect(shown.checks['Merkle root against the signed checkpoint']).toBe(PASSED);
      expect(shown.checks['Signature by a trusted key']).toBe(PASSED);
      expect(shown.authorship).toBe(
        'AUTHORSHIP VERIFIED: the checkpoint is signed by kat.runledger.example (key a5b6ff74) at 2025-01-04T00:00:00.000Z.',
      );
    }
    const unkeyed = await verifyIn(page, file);
    expect(unkeyed.checks['Merkle root against the signed checkpoint']).toBe(PASSED);
    expect(unkeyed.authorship).toMatch(/^AUTHORSHIP NOT CHECKED: no public key was given/);
    const stranger = await verifyIn(page, file, strangerVkey);
    expect(stranger.verdictClass).toBe('verdict tampered');
    expect(stranger.checks['Signature by a trusted key']).toBe(FAILED);
    expect(stranger.authorship).toMatch(/^AUTHORSHIP FAILED/);
    await page.close();
  });

  it('loads keys from a keys file, and from this server’s published keys on request', async () => {
    const page = await servedPage();
    const keysFile = join(work, 'runledger-keys.json');
    await writeFile(keysFile, katKeysDocument);
    await page.setInputFiles('#key-file', keysFile);
    await expect.poll(() => page.inputValue('#keys')).toBe(katKeysDocument);
    await page.setInputFiles('#file', {
      name: 'signed.ndjson',
      mimeType: 'text/plain',
      buffer: Buffer.from(signedExport),
    });
    await page.click('#run');
    expect((await readResult(page)).checks['Signature by a trusted key']).toBe(PASSED);
    // The published document is answered here by the test: the page asks its own origin, credentials omitted.
    const asked: { url: string; cookie: string | undefined }[] = [];
    await page.route('**/.well-known/runledger-keys.json', async (route) => {
      asked.push({ url: route.request().url(), cookie: route.request().headers().cookie });
      await route.fulfill({ contentType: 'application/json', body: katKeysDocument });
    });
    await page.fill('#keys', '');
    await page.click('#fetch-keys');
    await expect
      .poll(() => page.textContent('#status'))
      .toBe('This server’s published keys are loaded.');
    expect(asked).toEqual([
      { url: `${server.url}/.well-known/runledger-keys.json`, cookie: undefined },
    ]);
    await page.click('#run');
    expect((await readResult(page)).authorship).toMatch(
      /^AUTHORSHIP VERIFIED: the checkpoint is signed by kat/,
    );
    await page.close();
  });

  it('verifies a dropped file', async () => {
    const page = await servedPage();
    const transfer = await page.evaluateHandle(
      `(() => {
        const t = new DataTransfer();
        t.items.add(new File([${JSON.stringify(exported)}], 'dropped.ndjson'));
        return t;
      })()`,
    );
    await page.dispatchEvent('#drop', 'dragover', { dataTransfer: transfer });
    await page.dispatchEvent('#drop', 'drop', { dataTransfer: transfer });
    await expect
      .poll(() => page.textContent('#status'))
      .toBe('dropped.ndjson is ready: press Verify.');
    await page.click('#run');
    expect((await readResult(page)).verdict).toBe('INTACT: 3 receipts, every check passed');
    await page.close();
  });

  it('says what a bad key is, and verifies nothing with it', async () => {
    const page = await servedPage();
    await page.setInputFiles('#file', {
      name: 'signed.ndjson',
      mimeType: 'text/plain',
      buffer: Buffer.from(signedExport),
    });
    await page.fill('#keys', 'not-a-key');
    await page.click('#run');
    await expect
      .poll(() => page.textContent('#status'))
      .toMatch(/^The key cannot be used: the key cannot be read/);
    expect(await page.isHidden('#result')).toBe(true);
    await page.close();
  });

  it('verifies a share JSON with its proof, and catches a changed payload', async () => {
    const page = await servedPage();
    const good = await verifyIn(
      page,
      { name: 'share.json', text: JSON.stringify(signedShare(1), null, 2) },
      katVkey,
    );
    expect(good.verdict).toBe(
      'INTACT: receipt rcpt-000001-48adaf03 is in the signed ledger, every check passed',
    );
    expect(Object.values(good.checks)).toEqual(Array(6).fill(PASSED));
    const changed = signedShare(1);
    (changed.receipt as { payload: { approval: { note: string } } }).payload.approval.note = 'no';
    const bad = await verifyIn(page, { name: 'share.json', text: JSON.stringify(changed) });
    expect(bad.verdictClass).toBe('verdict tampered');
    expect(bad.checks['Payload hash']).toBe(FAILED);
    // The proof is about receipt_sha256, which still leads to the signed root: the payload does not.
    expect(bad.checks['Inclusion in the signed tree']).toBe(PASSED);
    expect(bad.findings).toEqual([
      [
        'Payload hash (hash_mismatch)',
        '',
        'rcpt-000001-48adaf03',
        '',
        expect.stringMatching(/^the payload hashes to [0-9a-f]{64}, receipt_sha256 is 48adaf03/),
      ],
    ]);
    expect(bad.authorship).toMatch(/^AUTHORSHIP NOT CHECKED/);
    await page.close();
  });

  it('verifies a share JSON from the server, and says what one without its proof cannot prove', async () => {
    const page = await servedPage();
    const shown = await verifyIn(page, { name: 'share.json', text: serverShare });
    expect(shown.verdictClass).toBe('verdict intact');
    expect(shown.checks['Inclusion in the signed tree']).toBe(PASSED);
    expect(shown.authorship).toMatch(/^AUTHORSHIP NOT CHECKED/);
    const partial = await verifyIn(page, { name: 'share.json', text: receiptOnly });
    expect(partial.verdictClass).toBe('verdict partial');
    expect(partial.verdict).toMatch(/^PARTLY CHECKED: the payload matches its receipt_sha256/);
    expect(partial.checks).toMatchObject({
      'Payload hash': PASSED,
      'Receipt id and position': PASSED,
      'Inclusion in the signed tree': NOT_CHECKED,
      'Signature by a trusted key': NOT_CHECKED,
    });
    const forged = receiptOnly.replace('"looks right"', '"looks wrong"');
    const bad = await verifyIn(page, { name: 'share.json', text: forged });
    expect(bad.verdictClass).toBe('verdict tampered');
    expect(bad.findings[0]?.[0]).toBe('Payload hash (hash_mismatch)');
    await page.close();
  });

  it('refuses a file that is neither an export nor a share JSON', async () => {
    const page = await servedPage();
    const shown = await verifyIn(page, { name: 'notes.txt', text: 'hello\nworld\n' });
    expect(shown.verdictClass).toBe('verdict unreadable');
    expect(shown.findings[0]?.[4]).toMatch(/neither an export .* nor a share JSON/);
    await page.close();
  });

  it('gives the same verdicts saved as one file, from file:// with every network request blocked', async () => {
    const { page, context, requested } = await offlinePage(browser, singleFile, errors);
    expect(await page.isHidden('#fetch-keys')).toBe(true);
    const served = await servedPage();
    const cases: [{ name: string; text: string }, string][] = [
      [{ name: 'ledger.ndjson', text: exported }, ''],
      [{ name: 'ledger.ndjson', text: tamper(exported, 4, '"looks right"', '"looks wrong"') }, ''],
      [{ name: 'ledger.ndjson', text: truncate(exported) }, ''],
      [{ name: 'signed.ndjson', text: signedExport }, katVkey],
      [{ name: 'signed.ndjson', text: signedExport }, ''],
      [{ name: 'share.json', text: JSON.stringify(signedShare(2)) }, katKeysDocument],
      [{ name: 'share.json', text: serverShare }, ''],
      [{ name: 'share.json', text: receiptOnly }, ''],
    ];
    const verdicts = await sameVerdicts(page, served, cases);
    expect(verdicts).toEqual([
      'verdict intact',
      'verdict tampered',
      'verdict unreadable',
      'verdict intact',
      'verdict intact',
      'verdict intact',
      'verdict intact',
      'verdict partial',
    ]);
    expect(requested).toEqual([]);
    await context.close();
    await served.close();
  });

  it('can be used from the keyboard, with labelled controls, and fits a phone', async () => {
    const page = await browser.newPage({ viewport: VIEWPORTS.phone });
    errors.push(...collectPageErrors(page));
    await page.goto(`${server.url}/verify`);
    const unlabelled = await page
      .locator('input, textarea, progress')
      .evaluateAll((els: { id: string; labels: unknown[] }[]) =>
        els.filter((el) => el.labels.length === 0).map((el) => el.id),
      );
    expect(unlabelled).toEqual([]);
    expect(await page.getAttribute('#status', 'aria-live')).toBe('polite');
    await page.setInputFiles('#file', {
      name: 'ledger.ndjson',
      mimeType: 'text/plain',
      buffer: Buffer.from(exported),
    });
    // From the key box, Tab reaches the Verify button (past the key file, served the fetch button,
    // and the witness fields).
    await page.focus('#keys');
    const order: string[] = [];
    for (let i = 0; i < 6 && order.at(-1) !== 'run'; i += 1) {
      await page.keyboard.press('Tab');
      order.push((await page.locator(':focus').getAttribute('id')) ?? '');
    }
    expect(order).toEqual(['key-file', 'fetch-keys', 'witnesses', 'witness-threshold', 'run']);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#result:not([hidden])');
    expect(await page.textContent('#status')).toContain('INTACT: 3 receipts');
    expect(await page.locator(':focus').getAttribute('id')).toBe('result');
    const overflow = () =>
      page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(await overflow()).toBeLessThanOrEqual(0);
    // Findings carry 64-hex hashes: they wrap instead of widening the page.
    const tampered = await verifyIn(page, {
      name: 'ledger.ndjson',
      text: tamper(exported, 2, '"looks right"', '"looks wrong"'),
    });
    expect(tampered.findings).toHaveLength(1);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.close();
  });

  it('logged no console or page errors (CSP violations included)', () => {
    expect(errors).toEqual([]);
  });
});
