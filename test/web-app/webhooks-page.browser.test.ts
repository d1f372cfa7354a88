import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  followRealTime,
  startReceiver,
  swHeaders,
  type Receiver,
} from '../helpers/webhook-receiver.js';
import {
  acceptedInvitation,
  openBrowserWorld,
  screenshotFolder,
  seriousViolations,
  signedIn,
  type BrowserWorld,
} from './world.js';

/** docs/app.md shows docs/app/webhooks.png: `RUNLEDGER_APP_SCREENSHOTS=1` writes it there. */
const shots = screenshotFolder();

/** Another site (localhost is not 127.0.0.1) whose page auto-posts a form to the app. */
async function hostileSite(action: string, fields: Record<string, string>) {
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${k}" value="${v}">`)
    .join('');
  const server: Server = createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html');
    res.end(
      `<form id="f" method="post" action="${action}">${inputs}</form><script>document.getElementById('f').submit()</script>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, server };
}

const width = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth');

describe('the webhooks page in Chromium', () => {
  let world: BrowserWorld;
  let receiver: Receiver;
  let ada: Page;
  let stopClock: () => void;

  beforeAll(async () => {
    receiver = await startReceiver();
    world = await openBrowserWorld({
      WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32',
      WEBHOOK_POLL_MS: '20',
    });
    stopClock = followRealTime(world.server.clock);
    ada = (await signedIn(world, 'ada@example.com')).page;
  }, 120_000);
  afterAll(async () => {
    stopClock?.();
    await world?.close();
    await receiver?.close();
  });

  it('creates an endpoint whose secret shows once; a test event arrives verified and is in the deliveries', async () => {
    await ada.getByRole('link', { name: 'Webhooks' }).click();
    await ada.getByLabel('Endpoint URL').fill(receiver.url);
    await ada.getByLabel('webhook.test').check();
    await ada.getByLabel('run.created').check();
    await ada.getByLabel('Description (optional)').fill('ci <b>hook</b>');
    await ada.getByRole('button', { name: 'Create the endpoint' }).click();
    const secret = (await ada.locator('#new-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    expect(await ada.getByRole('button', { name: 'Copy the secret' }).count()).toBe(1);
    expect(await ada.getByText('ci <b>hook</b>').count()).toBe(1);
    expect(await seriousViolations(ada)).toEqual([]);

    await ada.goto(`${world.server.url}/app/org/webhooks`);
    expect(await ada.content()).not.toContain(secret.slice(6, 20));
    expect(await ada.locator('#new-secret').count()).toBe(0);
    expect(
      await ada.getByRole('row', { name: /run\.created.*webhook\.test.*enabled/ }).count(),
    ).toBe(1);
    await ada.getByRole('button', { name: `Send a test event to ${receiver.url}` }).click();
    await ada.getByText('Test event queued.').waitFor();
    const [got] = await receiver.until((r) => r.length >= 1, 'the test event');
    const event = new Webhook(secret).verify(got!.body, swHeaders(got!)) as { type: string };
    expect(event.type).toBe('webhook.test');

    // The deliveries view (where the test redirected) shows it once delivered.
    for (let i = 0; i < 200 && (await ada.getByText('delivered').count()) === 0; i++) {
      await ada.reload();
    }
    const row = ada.getByRole('row', { name: new RegExp(`${got!.id}.*webhook\\.test.*delivered`) });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain('200');
    expect(await seriousViolations(ada)).toEqual([]);
    await ada.getByRole('button', { name: `Retry ${got!.id}` }).click();
    await ada.getByText('Delivery queued again.').waitFor();
    await receiver.until((r) => r.filter((x) => x.id === got!.id).length >= 2, 'the retry');
  });

  it('rotates the secret (shown once), disables, re-enables; a private address is refused with its reason', async () => {
    await ada.goto(`${world.server.url}/app/org/webhooks`);
    await ada.getByRole('button', { name: `Rotate the secret of ${receiver.url}` }).click();
    expect(await ada.getByText('The new signing secret').count()).toBe(1);
    expect(await ada.locator('#new-secret').textContent()).toMatch(/^whsec_/);
    await ada.getByRole('button', { name: `Disable ${receiver.url}` }).click();
    await ada.getByText('Endpoint disabled.').waitFor();
    expect(await ada.getByRole('row', { name: /disabled by an owner/ }).count()).toBe(1);
    await ada.getByRole('button', { name: `Enable ${receiver.url}` }).click();
    await ada.getByText('Endpoint enabled.').waitFor();

    await ada.getByLabel('Endpoint URL').fill('http://10.0.0.1/hook');
    await ada.getByLabel('webhook.test').check();
    await ada.getByRole('button', { name: 'Create the endpoint' }).click();
    await ada.getByText('url resolves to 10.0.0.1, an address webhooks may not reach').waitFor();
    expect(await ada.getByRole('heading', { name: 'Refused (400)' }).count()).toBe(1);
    expect(await seriousViolations(ada)).toEqual([]);
  });

  it('fits 375 px and is photographed for the docs', async () => {
    await ada.setViewportSize({ width: 1280, height: 900 });
    await ada.goto(`${world.server.url}/app/org/webhooks`);
    await ada.screenshot({ path: join(shots, 'webhooks.png'), fullPage: true });
    await ada.setViewportSize({ width: 375, height: 800 });
    const deliveries = await ada
      .getByRole('link', { name: /^Deliveries of / })
      .first()
      .getAttribute('href');
    for (const path of ['/app/org/webhooks', deliveries!]) {
      await ada.goto(`${world.server.url}${path}`);
      expect(await width(ada), path).toBeLessThanOrEqual(375);
    }
    await ada.setViewportSize({ width: 1280, height: 900 });
  });

  it('changes nothing when another site auto-posts the create form; deletes; a member gets 403', async () => {
    const evil = await hostileSite(`${world.server.url}/app/org/webhooks`, {
      url: 'http://127.0.0.1:9/evil',
      events: 'webhook.test',
    });
    try {
      await ada.goto(evil.url);
      await ada.waitForURL((url) => url.origin === world.server.url);
    } finally {
      evil.server.close();
    }
    await ada.goto(`${world.server.url}/app/org/webhooks`);
    expect(await ada.content()).not.toContain('/evil');
    await ada.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    await ada.getByText('Endpoint deleted.').waitFor();
    expect(await ada.getByText('No webhook endpoints yet.').count()).toBe(1);

    await ada.goto(`${world.server.url}/app/org`);
    await ada.getByLabel('E-mail address').fill('bob@example.com');
    await ada.getByRole('button', { name: 'Send the invitation' }).click();
    const bob = (await acceptedInvitation(world, 'bob@example.com')).page;
    expect(await bob.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    const answer = await bob.goto(`${world.server.url}/app/org/webhooks`);
    expect(answer?.status()).toBe(403);
    await bob.getByText('only an organization owner may open this page').waitFor();
  });
});
