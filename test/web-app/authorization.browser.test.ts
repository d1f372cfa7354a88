import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  onServer,
  openMailbox,
  person,
  seriousViolations,
  signInByMail,
  type Mailbox,
} from './world.js';

describe('who sees what, in Chromium', () => {
  let server: TestServer;
  let mailbox: Mailbox;
  let browser: Browser;
  let ada: Page;
  let bob: Page;
  let runUrl: string;

  beforeAll(async () => {
    mailbox = await openMailbox();
    server = await startTestServer({ SMTP_URL: mailbox.url });
    browser = await launchBrowser();
    ada = (await person(browser)).page;
    await signInByMail(ada, server.url, mailbox, 'ada@example.com');
    await ada.goto(`${server.url}/app/projects`);
    await ada.getByLabel('New project name').fill('Reports');
    await ada.getByRole('button', { name: 'Create the project' }).click();
    await ada.goto(`${server.url}/app/runs/new`);
    await ada.getByLabel('Title').fill('Nightly');
    await ada.getByRole('button', { name: 'Create the run' }).click();
    await ada.getByText('Run created.').waitFor();
    runUrl = ada.url().replace(/\?.*$/, '');
    await ada.goto(`${server.url}/app/org`);
    await ada.getByLabel('E-mail address').fill('bob@example.com');
    await ada.getByRole('button', { name: 'Send the invitation' }).click();
    bob = (await person(browser)).page;
    await bob.goto(
      onServer(await mailbox.linkFor('bob@example.com', '/auth/accept-invite'), server.url),
    );
    await bob.getByRole('button', { name: 'Accept the invitation and sign in' }).click();
    await bob.getByText('bob@example.com (member)').waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await mailbox?.close();
  });

  it('gives a member a clear 403 page on owner pages, and no owner links', async () => {
    expect(await bob.getByRole('link', { name: 'Organization' }).count()).toBe(0);
    for (const path of ['/app/org', '/app/audit', '/app/audit/export']) {
      const answer = await bob.goto(`${server.url}${path}`);
      expect(answer?.status(), path).toBe(403);
      await bob.getByText('only an organization owner may open this page').waitFor();
    }
    expect(await seriousViolations(bob)).toEqual([]);
    // The member still sees the organization's runs.
    await bob.goto(runUrl);
    await bob.getByRole('heading', { name: 'Nightly' }).waitFor();
  });

  it("answers 404 for another organization's run", async () => {
    const carl = (await person(browser)).page;
    await signInByMail(carl, server.url, mailbox, 'carl@example.org');
    await carl.getByRole('heading', { name: 'Runs' }).waitFor();
    const answer = await carl.goto(runUrl);
    expect(answer?.status()).toBe(404);
    await carl.getByRole('heading', { name: 'Not found (404)' }).waitFor();
    expect(await seriousViolations(carl)).toEqual([]);
    expect(await carl.getByText('Nightly').count()).toBe(0);
  });

  it('signs out: the cookie is gone and app pages ask to sign in again', async () => {
    await bob.goto(`${server.url}/app/runs`);
    await bob.getByRole('button', { name: 'Sign out' }).click();
    await bob.getByText('You are signed out.').waitFor();
    expect((await bob.context().cookies()).some((c) => c.name === 'runledger_session')).toBe(false);
    await bob.goto(runUrl);
    await bob.getByRole('heading', { name: 'Sign in' }).waitFor();
  });
  it('sends a signed-out browser to sign in and back to the page it wanted; an expired session too', async () => {
    const dora = (await person(browser)).page;
    await dora.goto(runUrl);
    await dora.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(dora.url()).pathname).toBe('/app/sign-in');
    await signInByMail(dora, server.url, mailbox, 'ada@example.com');
    await dora.getByRole('heading', { name: 'Nightly' }).waitFor();
    expect(dora.url()).toBe(runUrl);

    // Past the JWT lifetime (JWT_TTL_HOURS, 720 by default) the cookie's JWT no longer verifies.
    server.clock.advance(721 * 3600 * 1000);
    await dora.goto(`${server.url}/app/ledger`);
    await dora.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signInByMail(dora, server.url, mailbox, 'ada@example.com');
    await dora.getByRole('heading', { name: 'Ledger' }).waitFor();
  });
});
