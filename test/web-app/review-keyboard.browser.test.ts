import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_REPLY } from '../helpers/runs.js';
import {
  onServer,
  openBrowserWorld,
  person,
  screenshotFolder,
  seriousViolations,
  type BrowserWorld,
} from './world.js';

/** docs/app.md shows these screenshots: `RUNLEDGER_APP_SCREENSHOTS=1` writes them into docs/app/. */
const shots = screenshotFolder();

/** The accessible name of the focused element, as a keyboard user would hear it. */
const focusedName = (page: Page) =>
  page.evaluate<string>(`(() => {
    const el = document.activeElement;
    if (!el) return '';
    const labelled = el.labels && el.labels[0] ? el.labels[0].textContent : null;
    return (el.getAttribute('aria-label') ?? labelled ?? el.textContent ?? '').trim();
  })()`);

/** Presses Tab until the element named `name` has focus. */
async function tabTo(page: Page, name: string | RegExp): Promise<void> {
  for (let i = 0; i < 400; i++) {
    await page.keyboard.press('Tab');
    const now = await focusedName(page);
    if (typeof name === 'string' ? now === name : name.test(now)) return;
  }
  throw new Error(`Tab never reached ${String(name)}`);
}

describe('the review flow with the keyboard alone at 375 px', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    world = await openBrowserWorld();
  }, 120_000);
  afterAll(() => world?.close());

  /** The run to review (support-reply, audited, checks open), made through the API with the session's own JWT. */
  async function reviewableRun(context: BrowserContext): Promise<{ id: string }> {
    const jwt = (await context.cookies()).find((c) => c.name === 'runledger_session')!.value;
    const call = (path: string, body?: unknown) =>
      fetch(`${world.server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      }).then((r) => r.json() as Promise<{ id: string }>);
    const project = await call('/projects', { name: 'Support' });
    const run = await call('/runs', {
      project_id: project.id,
      flight_sheet_id: 'support-reply',
      title: 'Ticket T-1042',
    });
    await call(`/runs/${run.id}/evidence`, {
      kind: 'text',
      label: 'transcript',
      content: 'customer asked about invoices',
    });
    await call(`/runs/${run.id}/submission`, SUPPORT_REPLY);
    await call(`/runs/${run.id}/audit`);

    return run;
  }

  /** The page weight (page, stylesheet and script, compressed) and the desktop screenshots. */
  async function weighAndShoot(page: Page, context: BrowserContext, runId: string): Promise<void> {
    // What a browser loads for the run page, compressed: the page, its stylesheet and its script.
    const css = await (await fetch(`${world.server.url}/app/assets/app.css`)).text();
    const js = await (await fetch(`${world.server.url}/app/assets/app.js`)).text();
    expect(
      gzipSync(await page.content()).length + gzipSync(css).length + gzipSync(js).length,
    ).toBeLessThan(150 * 1024);

    const desktop = await context.newPage();
    await desktop.setViewportSize({ width: 1280, height: 900 });
    for (const [name, path] of [
      ['run-receipt', `/app/runs/${runId}`],
      ['runs', '/app/runs'],
      ['new-run', '/app/runs/new'],
      ['ledger', '/app/ledger?verify=1'],
      ['organization', '/app/org'],
      ['audit', '/app/audit'],
      ['projects', '/app/projects'],
    ] as const) {
      await desktop.goto(`${world.server.url}${path}`);
      await desktop.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
      // The same page on a phone: nothing wider than the screen.
      await page.goto(`${world.server.url}${path}`);
      expect(
        await page.evaluate<number>('document.documentElement.scrollWidth'),
        path,
      ).toBeLessThanOrEqual(375);
    }
  }

  it('signs in, grades every open check, finalizes, approves with a note and mints without a mouse', async () => {
    const { page, context, errors } = await person(world.browser, { width: 375, height: 800 });
    await page.goto(`${world.server.url}/app/sign-in`);
    expect(await seriousViolations(page)).toEqual([]);
    await tabTo(page, 'E-mail address');
    await page.keyboard.type('ada@example.com');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(
      onServer(await world.mailbox.linkFor('ada@example.com', '/auth/verify'), world.server.url),
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Enter'); // the one button has focus
    await page.getByRole('heading', { name: 'Runs' }).waitFor();

    const run = await reviewableRun(context);

    await page.goto(`${world.server.url}/app/runs/${run.id}`);
    await page.screenshot({ path: join(shots, 'run-review-phone.png'), fullPage: true });
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
      375,
    );
    expect(await seriousViolations(page)).toEqual([]);
    while ((await page.getByRole('button', { name: /^Pass: / }).count()) > 0) {
      await tabTo(page, /^Pass: /);
      await page.keyboard.press('Enter');
      await page.getByText('Check graded.').waitFor();
    }
    await tabTo(page, 'Finalize the findings');
    await page.keyboard.press('Enter');
    await page.getByText('Findings finalized.').waitFor();
    await tabTo(page, 'Note (optional)');
    await page.keyboard.type('Checked against the help centre.');
    await tabTo(page, 'Approve');
    await page.keyboard.press('Enter');
    await page.getByText('Decision recorded.').waitFor();
    await tabTo(page, 'Mint the receipt');
    await page.keyboard.press('Enter');
    await page.getByText('Receipt minted.').waitFor();
    expect(await page.locator('#receipt-verified').textContent()).toContain('Verified');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
      375,
    );
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);

    await weighAndShoot(page, context, run.id);
    console.log(`web app screenshots: ${shots}`);
  }, 180_000);
});
