import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptedInvitation,
  openBrowserWorld,
  seriousViolations,
  signedIn,
  type BrowserWorld,
} from './world.js';

describe('owner pages in Chromium', () => {
  let world: BrowserWorld;
  let ada: Page;

  beforeAll(async () => {
    world = await openBrowserWorld();
    ada = (await signedIn(world, 'ada@example.com')).page;
  }, 120_000);
  afterAll(() => world?.close());

  const me = (headers: Record<string, string>) =>
    fetch(`${world.server.url}/auth/me`, { headers }).then((r) => r.status);

  it('creates a key shown once with a copy button, then only its prefix; a revoked key answers 401 at once', async () => {
    await ada.goto(`${world.server.url}/app/org`);
    await ada.getByLabel('New key name').fill('ci <b>deploy</b>');
    await ada.getByRole('button', { name: 'Create a key' }).click();
    const key = (await ada.locator('#new-key').textContent())!;
    expect(key).toMatch(/^rlk_/);
    expect(await ada.getByRole('button', { name: 'Copy the key' }).count()).toBe(1);
    expect(await ada.getByText('The new key ci <b>deploy</b>').count()).toBe(1);
    expect(await seriousViolations(ada)).toEqual([]);
    expect(await me({ 'x-api-key': key })).toBe(200);

    await ada.goto(`${world.server.url}/app/org`);
    expect(await ada.content()).not.toContain(key);
    expect(await ada.content()).toContain(`${key.slice(0, 12)}`);
    await ada.getByRole('button', { name: 'Revoke ci <b>deploy</b>' }).click();
    await ada.getByText('Revoked.').waitFor();
    expect(await me({ 'x-api-key': key })).toBe(401);
  });

  it('refuses to demote the last owner and shows the reason', async () => {
    await ada.goto(`${world.server.url}/app/org`);
    await ada.getByLabel('Role of ada@example.com').selectOption('member');
    await ada.getByRole('button', { name: 'Change role' }).click();
    await ada.getByText('the last owner cannot be demoted').waitFor();
    expect(await ada.getByRole('heading', { name: 'Not possible now (409)' }).count()).toBe(1);
    expect(await seriousViolations(ada)).toEqual([]);
  });

  it('invites by e-mail, the invitee joins as a member, the role changes; an open invitation is revoked', async () => {
    await ada.goto(`${world.server.url}/app/org`);
    await ada.getByLabel('E-mail address').fill('bob@example.com');
    await ada.getByRole('button', { name: 'Send the invitation' }).click();
    await ada.getByText('Invitation sent to bob@example.com').waitFor();
    const bob = (await acceptedInvitation(world, 'bob@example.com')).page;

    await ada.goto(`${world.server.url}/app/org`);
    await ada.getByLabel('Role of bob@example.com').selectOption('owner');
    await ada
      .locator('form', { has: ada.getByLabel('Role of bob@example.com') })
      .getByRole('button')
      .click();
    await ada.getByText('Role changed.').waitFor();
    expect(await ada.getByLabel('Role of bob@example.com').inputValue()).toBe('owner');
    await bob.reload();
    await bob.getByText('bob@example.com (owner)').waitFor();

    await ada.getByLabel('E-mail address').fill('carol@example.com');
    await ada.getByRole('button', { name: 'Send the invitation' }).click();
    await ada.getByRole('button', { name: 'Revoke the invitation of carol@example.com' }).click();
    await ada.getByText('Revoked.').waitFor();
    expect(await ada.getByRole('row', { name: /carol@example.com.*revoked/ }).count()).toBe(1);
  });

  it('changes the share identity and lists it in the audit chain, filtered by type, with its export', async () => {
    await ada.goto(`${world.server.url}/app/org`);
    await ada.getByLabel('Shared receipts name people by').selectOption('id');
    await ada.getByRole('button', { name: 'Save' }).click();
    await ada.getByText('Saved.').waitFor();
    expect(await ada.getByLabel('Shared receipts name people by').inputValue()).toBe('id');

    await ada.getByRole('link', { name: 'Audit' }).click();
    await ada.getByLabel('Event type').selectOption('org.share_identity_changed');
    await ada.getByRole('button', { name: 'Filter' }).click();
    const rows = ada.locator('tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('org.share_identity_changed');
    expect(await seriousViolations(ada)).toEqual([]);
    const download = ada.waitForEvent('download');
    await ada.getByRole('link', { name: 'Download the audit export (NDJSON)' }).click();
    expect((await download).suggestedFilename()).toBe('audit.ndjson');
  });

  it('browses projects and flight sheets: a sheet shows its rules with tier and its versions', async () => {
    await ada.goto(`${world.server.url}/app/projects`);
    await ada
      .getByRole('link', { name: /Support reply/i })
      .first()
      .click();
    await ada.getByRole('heading', { name: 'Rules' }).waitFor();
    expect(await ada.getByRole('columnheader', { name: 'Tier' }).count()).toBe(1);
    expect(await ada.getByText('(this one)').count()).toBe(1);
    expect(await seriousViolations(ada)).toEqual([]);
  });

  it('shows a pasted submission that is not JSON as refused, and schema findings at their JSON path', async () => {
    await ada.goto(`${world.server.url}/app/projects`);
    await ada.getByLabel('New project name').fill('Support');
    await ada.getByRole('button', { name: 'Create the project' }).click();
    await ada.goto(`${world.server.url}/app/runs/new`);
    const sheet = ada.getByLabel('Flight sheet');
    await sheet.selectOption(
      (await sheet.locator('option', { hasText: 'support-reply' }).getAttribute('value'))!,
    );
    await ada.getByLabel('Title').fill('Bad reply');
    await ada.getByRole('button', { name: 'Create the run' }).click();
    const runUrl = ada.url().replace(/\?.*$/, '');
    await ada.getByLabel('Submission (a JSON object or array)').fill('{"reply": ');
    await ada.getByRole('button', { name: 'Save the submission' }).click();
    await ada.getByText('json: not valid JSON').waitFor();
    await ada.goto(runUrl);
    await ada
      .getByLabel('Submission (a JSON object or array)')
      .fill(JSON.stringify({ ticket_id: 'T-1', reply: { body: 42 } }));
    await ada.getByRole('button', { name: 'Save the submission' }).click();
    await ada.getByRole('button', { name: 'Audit the submission' }).click();
    await ada.getByText('Audit done.').waitFor();
    expect(await ada.locator('#schema-errors').textContent()).toContain('/reply/body');
    expect(await seriousViolations(ada)).toEqual([]);
  });
});
