import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyPage } from '../../verify-tool/src/web/build.js';
import { receiptedRun, type Receipted } from '../attestation/fixtures.js';
import { signIn } from '../helpers/auth.js';
import { launchBrowser } from '../helpers/browser.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { newProject, sharePath } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { servedVerifyPage, verifyIn } from './page.js';

const PASSED = '✓ passed';

describe('the verify page, given a receipt attestation', () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let risk: Receipted;
  let publishedKeys: string;
  const errors: string[] = [];

  beforeAll(async () => {
    await buildVerifyPage();
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    const ada = await signIn(api, 'ada@example.com');
    risk = await receiptedRun(api, ada.token, await newProject(api, ada.token), 'risk');
    publishedKeys = (await api('GET', '/.well-known/runledger-keys.json')).text;
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const download = async (suffix: string) =>
    (await api('GET', `${sharePath(risk.receipt.share_url)}/attestation${suffix}`)).text;

  it('verifies the served envelope and the Sigstore bundle with the published keys', async () => {
    const page = await servedVerifyPage(browser, server.url, errors);
    for (const [name, suffix] of [
      ['receipt.intoto.json', ''],
      ['receipt.sigstore.json', '/sigstore'],
    ] as const) {
      const shown = await verifyIn(page, { name, text: await download(suffix) }, publishedKeys);
      expect(shown.verdictClass, name).toBe('verdict intact');
      expect(shown.verdict).toBe(
        `INTACT: the attestation of receipt ${risk.receipt.receipt_id} (verificationResult FAILED) is signed and its receipt is in the signed ledger`,
      );
      expect(shown.checks['Envelope signature by a trusted key']).toBe(PASSED);
      expect(shown.checks['Inclusion in the signed tree']).toBe(PASSED);
      expect(shown.checks['Signature by a trusted key']).toBe(PASSED);
      expect(shown.authorship).toMatch(/^AUTHORSHIP VERIFIED: /);
    }
  });

  it('names the failing checks of an edited statement', async () => {
    const page = await servedVerifyPage(browser, server.url, errors);
    const envelope = JSON.parse(await download('')) as { payload: string };
    const edited = Buffer.from(envelope.payload, 'base64')
      .toString('utf8')
      .replace('"FAILED"', '"PASSED"');
    const text = JSON.stringify({ ...envelope, payload: Buffer.from(edited).toString('base64') });
    const shown = await verifyIn(page, { name: 'edited.json', text }, publishedKeys);
    expect(shown.verdictClass).toBe('verdict tampered');
    expect(shown.checks['Envelope signature by a trusted key']).toBe('✗ FAILED');
    expect(shown.findings.map((row) => row[0])).toEqual([
      'Envelope signature by a trusted key (envelope_signature_invalid)',
      'Verification result agrees with the verdict (statement_mismatch)',
    ]);
  });

  it('logged no console or page errors (CSP violations included)', () => {
    expect(errors).toEqual([]);
  });
});
