import type { Page } from 'playwright-core';

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
  file: { name: string; text: string } | string,
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
