import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../helpers/postgres.js';
import { SUPPORT_REPLY } from '../helpers/runs.js';
import {
  invitationLink,
  onServer,
  openBrowserWorld,
  person,
  seriousViolations,
  signInByMail,
  type BrowserWorld,
} from './world.js';

const files = mkdtempSync(join(tmpdir(), 'runledger-app-'));

/** Every page of the path is checked as it is passed: the CSP header and no serious axe finding. */
async function checkPage(page: Page, seen: Set<string>) {
  const path = new URL(page.url()).pathname.replace(/\/(run|prj|rcpt)[^/]*/g, '/:id');
  if (seen.has(path)) return;
  seen.add(path);
  expect(await seriousViolations(page), path).toEqual([]);
}

describe.each(engines)('the whole human path in Chromium (%s)', (engine) => {
  let world: BrowserWorld;
  const seen = new Set<string>();

  beforeAll(async () => {
    world = await openBrowserWorld({}, { engine });
  }, 120_000);
  afterAll(() => world?.close());

  type Person = Awaited<ReturnType<typeof person>>;

  /** Ada signs in (her first sign-in makes the organization), makes a project and invites Bob, who joins. */
  async function ownerStartsAndInvites(): Promise<{ ada: Person; bob: Person }> {
    // The owner: the first sign-in of an address makes its organization.
    const ada = await person(world.browser);
    await signInByMail(ada.page, world.server.url, world.mailbox, 'ada@example.com');
    await ada.page.getByRole('heading', { name: 'Runs' }).waitFor();
    await checkPage(ada.page, seen);
    await ada.page.getByRole('link', { name: 'Projects and sheets' }).click();
    await ada.page.getByLabel('New project name').fill('Support <b>desk</b>');
    await ada.page.getByRole('button', { name: 'Create the project' }).click();
    await ada.page.getByRole('cell', { name: 'Support <b>desk</b>' }).waitFor();
    await checkPage(ada.page, seen);

    // The owner invites Bob; Bob accepts from the e-mailed link.
    await ada.page.getByRole('link', { name: 'Organization' }).click();
    await ada.page.getByLabel('E-mail address').fill('bob@example.com');
    await ada.page.getByRole('button', { name: 'Send the invitation' }).click();
    await ada.page.getByText('Invitation sent to bob@example.com').waitFor();
    await checkPage(ada.page, seen);
    const bob = await person(world.browser);
    await bob.page.goto(await invitationLink(world, 'bob@example.com'));
    await checkPage(bob.page, seen);
    await bob.page.getByRole('button', { name: 'Accept the invitation and sign in' }).click();
    await bob.page.getByText('bob@example.com (member)').waitFor();
    return { ada, bob };
  }

  /** Bob: a run on the checklist sheet, a file, text evidence, the submission, the audit; its URL. */
  async function memberPreparesRun(bob: Person): Promise<string> {
    // Bob: a run on the checklist sheet, a file, text evidence, the submission, the audit.
    await bob.page.getByRole('link', { name: 'New run' }).click();
    await checkPage(bob.page, seen);
    const sheet = bob.page.getByLabel('Flight sheet');
    await sheet.selectOption(
      (await sheet.locator('option', { hasText: 'support-reply' }).getAttribute('value'))!,
    );
    await bob.page.getByLabel('Title').fill('Ticket T-1042 <script>alert(1)</script>');
    await bob.page.getByRole('button', { name: 'Create the run' }).click();
    await bob.page
      .getByRole('heading', { name: 'Ticket T-1042 <script>alert(1)</script>' })
      .waitFor();
    await checkPage(bob.page, seen);
    const runUrl = bob.page.url();

    const file = join(files, 'transcript.txt');
    writeFileSync(file, 'customer: how do I export invoices?\n'.repeat(2000));
    await bob.page.getByLabel('File label').fill('chat transcript');
    await bob.page.getByLabel('File (at most 25 MB)').setInputFiles(file);
    await bob.page.getByRole('button', { name: 'Upload the file' }).click();
    await bob.page.getByText('File uploaded.').waitFor();
    await bob.page.getByLabel('Label', { exact: true }).fill('agent note');
    await bob.page.getByLabel('Content').fill('Checked the help centre article.');
    await bob.page.getByRole('button', { name: 'Add text evidence' }).click();
    await bob.page.getByText('Evidence added.').waitFor();
    await bob.page
      .getByLabel('Submission (a JSON object or array)')
      .fill(JSON.stringify(SUPPORT_REPLY));
    await bob.page.getByRole('button', { name: 'Save the submission' }).click();
    await bob.page.getByText('Submission saved.').waitFor();
    await bob.page.getByRole('button', { name: 'Audit the submission' }).click();
    await bob.page.getByText('Audit done.').waitFor();
    expect(await bob.page.locator('#run-state').textContent()).toBe('audited');
    // The runs list filtered by flight sheet (every version of its slug).
    await bob.page.goto(`${world.server.url}/app/runs?sheet=support-reply`);
    expect(await bob.page.getByRole('link', { name: /Ticket T-1042/ }).count()).toBe(1);
    await bob.page.getByLabel('Flight sheet').selectOption('agent-task-report');
    await bob.page.getByRole('button', { name: 'Filter' }).click();
    await bob.page.getByText('No runs yet.').waitFor();
    await bob.page.goto(runUrl);
    const download = bob.page.waitForEvent('download');
    await bob.page.getByRole('link', { name: 'Download transcript.txt' }).click();
    expect((await download).suggestedFilename()).toBe('transcript.txt');
    return runUrl;
  }

  /** Ada: every open check graded pass, findings, approval with a note, the receipt, the ledger. */
  async function ownerReviews(ada: Person, runUrl: string): Promise<void> {
    await ada.page.goto(runUrl);
    await checkPage(ada.page, seen);
    for (;;) {
      const pass = ada.page.getByRole('button', { name: /^Pass: / }).first();
      if ((await pass.count()) === 0) break;
      await pass.click();
      await ada.page.getByText('Check graded.').waitFor();
    }
    await ada.page.getByRole('button', { name: 'Finalize the findings' }).click();
    await ada.page.getByText('Findings finalized.').waitFor();
    await ada.page.getByLabel('Note (optional)').fill('Reply checked <i>by hand</i>');
    await ada.page.getByRole('button', { name: 'Approve' }).click();
    await ada.page.getByText('Decision recorded.').waitFor();
    await ada.page.getByRole('button', { name: 'Mint the receipt' }).click();
    await ada.page.getByText('Receipt minted.').waitFor();
    expect(await ada.page.locator('#receipt-verified').textContent()).toContain('Verified');
    expect(await ada.page.getByText('Reply checked <i>by hand</i>').count()).toBe(1);
    await checkPage(ada.page, seen);

    const share = await ada.page.locator('#share-link').getAttribute('href');
    await ada.page.goto(onServer(share!, world.server.url));
    await ada.page
      .getByText(/Ticket T-1042/)
      .first()
      .waitFor();
    expect(await ada.page.locator('#verdict').count()).toBe(1);

    await ada.page.goto(`${world.server.url}/app/ledger?verify=1`);
    expect(await ada.page.locator('#verify-result').textContent()).toContain('1 receipts verified');
    await checkPage(ada.page, seen);
  }

  it('a member signs in from the e-mail, creates a run, uploads, submits and audits; an owner grades, approves and mints', async () => {
    const { ada, bob } = await ownerStartsAndInvites();
    await ownerReviews(ada, await memberPreparesRun(bob));
    expect(ada.errors).toEqual([]);
    expect(bob.errors).toEqual([]);
  }, 180_000);
});
