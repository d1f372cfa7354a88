import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { collectPageErrors, VIEWPORTS } from '../helpers/browser.js';

/** What the page shows after a verification, read from the DOM as a person would see it. */
export interface Shown {
  verdict: string;
  verdictClass: string;
  authorship: string;
  status: string;
  checks: Record<string, string>;
  findings: string[][];
}

/** Chooses a file (and keys), presses Verify and reads the result. */
export async function verifyIn(
  page: Page,
  file: { name: string; text: string | Uint8Array } | string,
  keys = '',
): Promise<Shown> {
  await page.locator('#result').evaluate((el: { hidden: boolean }) => {
    el.hidden = true;
  });
  await page.setInputFiles(
    '#file',
    typeof file === 'string'
      ? file
      : { name: file.name, mimeType: 'text/plain', buffer: Buffer.from(file.text) },
  );
  await page.fill('#keys', keys);
  await page.click('#run');
  return readResult(page);
}

export async function readResult(page: Page, timeout = 30_000): Promise<Shown> {
  await page.waitForSelector('#result:not([hidden])', { timeout });
  const rows = async (id: string) => {
    const trs = page.locator(`#${id} tbody tr`);
    const out: string[][] = [];
    for (let i = 0; i < (await trs.count()); i += 1) {
      out.push(await trs.nth(i).locator('td').allTextContents());
    }
    return out;
  };
  const text = async (id: string) => (await page.textContent(`#${id}`)) ?? '';
  return {
    verdict: await text('verdict'),
    verdictClass: (await page.getAttribute('#verdict', 'class')) ?? '',
    authorship: await text('authorship'),
    status: await text('status'),
    checks: Object.fromEntries((await rows('checks')).map(([name, result]) => [name, result])),
    findings: await rows('findings'),
  };
}

/** The page as the test server serves it at /verify, its errors collected. */
export async function servedVerifyPage(
  browser: Browser,
  serverUrl: string,
  errors: string[],
): Promise<Page> {
  const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
  errors.push(...collectPageErrors(page));
  await page.goto(`${serverUrl}/verify`);
  return page;
}

/** The saved single file, opened from file:// in a context that aborts (and records) every other request. */
export async function offlinePage(
  browser: Browser,
  file: string,
  errors: string[],
): Promise<{ page: Page; context: BrowserContext; requested: string[] }> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  const requested: string[] = [];
  await context.route('**', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    requested.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  errors.push(...collectPageErrors(page));
  await page.goto(pathToFileURL(file).href);
  return { page, context, requested };
}

/** Verifies each case on both pages, expects the same result (but the status line), returns the verdict classes. */
export async function sameVerdicts(
  offline: Page,
  served: Page,
  cases: [{ name: string; text: string | Uint8Array }, string][],
): Promise<string[]> {
  const verdicts: string[] = [];
  for (const [file, keys] of cases) {
    const there: Shown = await verifyIn(offline, file, keys);
    const here: Shown = await verifyIn(served, file, keys);
    if (JSON.stringify({ ...there, status: '' }) !== JSON.stringify({ ...here, status: '' })) {
      throw new Error(
        `${file.name}: offline ${JSON.stringify(there)} differs from served ${JSON.stringify(here)}`,
      );
    }
    verdicts.push(there.verdictClass);
  }
  return verdicts;
}
