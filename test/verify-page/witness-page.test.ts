import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatVkey, noteSigner } from '@runledger/verify/note';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyPage } from '../../verify-tool/src/web/build.js';
import { testWitness, tlogProofFor } from '../../verify-tool/src/testing/witness.js';
import { launchBrowser } from '../helpers/browser.js';
import { offlinePage, readResult, type Shown } from './page.js';

/*
 * The saved verify page (offline, in Chromium) checks C2SP tlog-proof files and witness
 * cosignatures the way runledger-verify does: two witnesses with threshold 2 pass, an unknown
 * witness fails, and a changed byte of the proof fails.
 */
const owner = noteSigner('runledger.example', new Uint8Array(32).fill(5));
const ownerVkey = formatVkey(owner.name, owner.publicKey);
const w1 = testWitness('w1.example', 1);
const w2 = testWitness('w2.example', 2);
const stranger = testWitness('w3.example', 3);

describe('the verify page with witnesses and tlog-proof files', () => {
  let browser: Browser;
  let work: string;
  let page: Page;
  let context: BrowserContext;
  const errors: string[] = [];
  const { text } = tlogProofFor(40, 17, owner, [w1.signer, w2.signer]);

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'runledger-witness-page-'));
    const singleFile = `${(await buildVerifyPage(`${work}/saved/`)).outDir}verify.html`;
    browser = await launchBrowser();
    ({ page, context } = await offlinePage(browser, singleFile, errors));
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await rm(work, { recursive: true, force: true });
  });

  async function verify(
    proof: string | Uint8Array,
    witnesses: string[],
    threshold = '',
  ): Promise<Shown> {
    await page.locator('#result').evaluate((el: { hidden: boolean }) => {
      el.hidden = true;
    });
    await page.setInputFiles('#file', {
      name: 'receipt.tlog-proof',
      mimeType: 'text/plain',
      buffer: Buffer.from(proof),
    });
    await page.fill('#keys', ownerVkey);
    await page.fill('#witnesses', witnesses.join('\n'));
    await page.fill('#witness-threshold', threshold);
    await page.click('#run');
    return readResult(page);
  }

  it('verifies a tlog-proof cosigned by both witnesses with threshold 2', async () => {
    const shown = await verify(text, [w1.vkey, w2.vkey], '2');
    expect(shown.verdict).toMatch(/^INTACT/);
    expect(shown.checks['Inclusion in the signed tree']).toContain('passed');
    expect(shown.checks['Witness cosignatures']).toContain('passed');
    expect(errors).toEqual([]);
  });

  it('fails with a witness it does not know', async () => {
    const shown = await verify(text, [w1.vkey, stranger.vkey], '2');
    expect(shown.verdict).toMatch(/^TAMPERED/);
    expect(shown.checks['Witness cosignatures']).toContain('FAILED');
  });

  it('fails on a changed byte of the proof', async () => {
    const bytes = Buffer.from(text);
    const at = bytes.indexOf('index') + 8;
    bytes[at] = bytes[at]! ^ 1;
    const shown = await verify(bytes, [w1.vkey, w2.vkey]);
    expect(shown.verdict).not.toMatch(/^INTACT/);
  });
});
