import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptedInvitation,
  openBrowserWorld,
  person,
  seriousViolations,
  signedIn,
  signInByMail,
  type BrowserWorld,
} from './world.js';

describe('who sees what, in Chromium', () => {
  let world: BrowserWorld;
  let ada: Page;
  let bob: Page;
  let runUrl: string;

  beforeAll(async () => {
    world = await openBrowserWorld();
    ada = (await signedIn(world, 'ada@example.com')).page;
    await ada.goto(`${world.server.url}/app/projects`);
    await ada.getByLabel('New project name').fill('Reports');
    await ada.getByRole('button', { name: 'Create the project' }).click();
    await ada.goto(`${world.server.url}/app/runs/new`);
    await ada.getByLabel('Title').fill('Nightly');
    await ada.getByRole('button', { name: 'Create the run' }).click();
    await ada.getByText('Run created.').waitFor();
    runUrl = ada.url().replace(/\?.*$/, '');
    await ada.goto(`${world.server.url}/app/org`);
    await ada.getByLabel('E-mail address').fill('bob@example.com');
    await ada.getByRole('button', { name: 'Send the invitation' }).click();
    bob = (await acceptedInvitation(world, 'bob@example.com')).page;
  }, 120_000);
  afterAll(() => world?.close());

  it('gives a member a clear 403 page on owner pages, and no owner links', async () => {
    expect(await bob.getByRole('link', { name: 'Organization' }).count()).toBe(0);
    for (const path of ['/app/org', '/app/audit', '/app/audit/export']) {
      const answer = await bob.goto(`${world.server.url}${path}`);
      expect(answer?.status(), path).toBe(403);
      await bob.getByText('only an organization owner may open this page').waitFor();
    }
    expect(await seriousViolations(bob)).toEqual([]);
    // The member still sees the organization's runs.
    await bob.goto(runUrl);
    await bob.getByRole('heading', { name: 'Nightly' }).waitFor();
  });

  it("answers 404 for another organization's run", async () => {
    const carl = (await person(world.browser)).page;
    await signInByMail(carl, world.server.url, world.mailbox, 'carl@example.org');
    await carl.getByRole('heading', { name: 'Runs' }).waitFor();
    const answer = await carl.goto(runUrl);
    expect(answer?.status()).toBe(404);
    await carl.getByRole('heading', { name: 'Not found (404)' }).waitFor();
    expect(await seriousViolations(carl)).toEqual([]);
    expect(await carl.getByText('Nightly').count()).toBe(0);
  });

  it('signs out: the cookie is gone and app pages ask to sign in again', async () => {
    await bob.goto(`${world.server.url}/app/runs`);
    await bob.getByRole('button', { name: 'Sign out' }).click();
    await bob.getByText('You are signed out.').waitFor();
    expect((await bob.context().cookies()).some((c) => c.name === 'runledger_session')).toBe(false);
    await bob.goto(runUrl);
    await bob.getByRole('heading', { name: 'Sign in' }).waitFor();
  });
  it('sends a signed-out browser to sign in and back to the page it wanted; an expired session too', async () => {
    const dora = (await person(world.browser)).page;
    await dora.goto(runUrl);
    await dora.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(dora.url()).pathname).toBe('/app/sign-in');
    await signInByMail(dora, world.server.url, world.mailbox, 'ada@example.com');
    await dora.getByRole('heading', { name: 'Nightly' }).waitFor();
    expect(dora.url()).toBe(runUrl);

    // Past the JWT lifetime (JWT_TTL_HOURS, 720 by default) the cookie's JWT no longer verifies.
    world.server.clock.advance(721 * 3600 * 1000);
    await dora.goto(`${world.server.url}/app/ledger`);
    await dora.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signInByMail(dora, world.server.url, world.mailbox, 'ada@example.com');
    await dora.getByRole('heading', { name: 'Ledger' }).waitFor();
  });
});
