import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from '../helpers/captured-log.js';
import { startTestServer } from '../helpers/server.js';
import {
  onServer,
  openBrowserWorld,
  person,
  seriousViolations,
  signedIn,
  type BrowserWorld,
} from './world.js';

const APP_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Another site (localhost is not 127.0.0.1) whose page auto-posts a form to the app. */
async function hostileSite(target: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const [action, fields] = JSON.parse(decodeURIComponent((req.url ?? '/').slice(1))) as [
      string,
      Record<string, string>,
    ];
    const inputs = Object.entries(fields)
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${v}">`)
      .join('');
    res.setHeader('Content-Type', 'text/html');
    res.end(
      `<form id="f" method="post" action="${target}${action}">${inputs}</form><script>document.getElementById('f').submit()</script>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}`, server };
}

describe('web app security in Chromium', () => {
  let world: BrowserWorld;
  let ada: { context: BrowserContext; page: Page };
  let jwt: string;
  const log = captureLog();
  /** Every secret the browser saw: links' tokens, the session JWT, the CSRF token, API keys. */
  const secrets = new Set<string>();

  beforeAll(async () => {
    world = await openBrowserWorld({ LOG_LEVEL: 'trace' }, { logger: log.logger });
    ada = await signedIn(world, 'ada@example.com');
    jwt = (await ada.context.cookies()).find((c) => c.name === 'runledger_session')!.value;
    secrets.add(jwt);
    secrets.add((await ada.page.locator('input[name=csrf]').first().getAttribute('value'))!);
  }, 120_000);
  afterAll(() => world?.close());

  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${world.server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${jwt}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }).then(async (r) => ({ status: r.status, body: (await r.json().catch(() => null)) as never }));

  it('keeps the session in an HttpOnly SameSite=Lax cookie holding the API JWT, never in storage or a URL', async () => {
    const cookie = (await ada.context.cookies()).find((c) => c.name === 'runledger_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', secure: false });
    expect(cookie.expires - Date.now() / 1000).toBeGreaterThan(719 * 3600);
    expect((await api('GET', '/auth/me')).status).toBe(200);
    expect(await ada.page.evaluate<number>('localStorage.length + sessionStorage.length')).toBe(0);
    expect(ada.page.url()).not.toContain('token');
  });

  it('over https the cookie is Secure and __Host- prefixed', async () => {
    const https = await startTestServer({ PUBLIC_BASE_URL: 'https://runledger.test' });
    try {
      const origin = {
        origin: 'https://runledger.test',
        'content-type': 'application/x-www-form-urlencoded',
      };
      const asked = await fetch(`${https.url}/app/sign-in`, {
        method: 'POST',
        headers: origin,
        body: 'email=ada%40example.com',
      });
      const token = /token=([A-Za-z0-9_-]+)/.exec(await asked.text())![1]!;
      const signed = await fetch(`${https.url}/app/sign-in/link`, {
        method: 'POST',
        headers: origin,
        body: `token=${token}`,
        redirect: 'manual',
      });
      expect(signed.status).toBe(303);
      expect(signed.headers.get('set-cookie')).toMatch(
        /^__Host-runledger_session=[A-Za-z0-9._-]+; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax; Secure$/,
      );
    } finally {
      await https.close();
    }
  });

  it('changes nothing when a page on another site auto-posts approve, revoke or invite forms', async () => {
    const project = (await api('POST', '/projects', { name: 'p' })).body as { id: string };
    const run = (
      await api('POST', '/runs', {
        project_id: project.id,
        flight_sheet_id: 'support-reply',
        title: 't',
      })
    ).body as { id: string };
    const key = (await api('POST', '/org/api-keys', { name: 'k' })).body as {
      key_id: string;
      key: string;
    };
    const evil = await hostileSite(world.server.url);
    try {
      for (const [action, fields] of [
        [`/app/runs/${run.id}/decision`, { decision: 'approved', note: 'forged' }],
        [`/app/org/keys/${key.key_id}/revoke`, {}],
        ['/app/org/invites', { email: 'mallory@example.com', role: 'owner' }],
        ['/app/sign-out', {}],
      ] as const) {
        await ada.page.goto(`${evil.url}/${encodeURIComponent(JSON.stringify([action, fields]))}`);
        await ada.page.waitForURL((url) => url.origin === world.server.url);
      }
    } finally {
      evil.server.close();
    }
    expect(
      ((await api('GET', `/runs/${run.id}`)).body as { approval: unknown }).approval,
    ).toBeNull();
    expect(
      (await fetch(`${world.server.url}/auth/me`, { headers: { 'x-api-key': key.key } })).status,
    ).toBe(200);
    expect(JSON.stringify((await api('GET', '/org/invites')).body)).not.toContain('mallory');
    // A same-origin post without the form's CSRF token is refused too.
    await ada.page.goto(`${world.server.url}/app/runs`);
    const status = await ada.page.evaluate(() =>
      fetch('/app/org/invites', {
        method: 'POST',
        body: new URLSearchParams({ email: 'eve@example.com', role: 'member' }),
      }).then((r) => r.status),
    );
    expect(status).toBe(403);
    expect(JSON.stringify((await api('GET', '/org/invites')).body)).not.toContain('eve@');
  });

  it('sends the strict CSP on every page and asset, and renders markup in input as text', async () => {
    const seen: string[] = [];
    ada.page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/app')) {
        expect(r.headers()['content-security-policy'], r.url()).toBe(APP_CSP);
        seen.push(r.url());
      }
    });
    for (const path of [
      '/app/runs',
      '/app/runs/new',
      '/app/ledger',
      '/app/projects',
      '/app/audit',
      '/app/org',
      '/app/nowhere',
    ]) {
      await ada.page.goto(`${world.server.url}${path}`);
    }
    expect(seen.length).toBeGreaterThan(7);
    const asked = await fetch(`${world.server.url}/app/sign-in`, {
      method: 'POST',
      headers: { origin: world.server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: `email=${encodeURIComponent('<b>x</b>@example.com')}`,
    });
    expect(await asked.text()).not.toContain('<b>x</b>');
  });

  it('a GET of the link uses nothing; a second use shows "already used"', async () => {
    const page = (await person(world.browser)).page;
    await page.goto(`${world.server.url}/app/sign-in`);
    await page.getByLabel('E-mail address').fill('ada@example.com');
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    const link = onServer(
      await world.mailbox.linkFor('ada@example.com', '/auth/verify'),
      world.server.url,
    );
    secrets.add(new URL(link).searchParams.get('token')!);
    // What an e-mail scanner does: fetch the link, twice. The token is still good afterwards.
    for (let i = 0; i < 2; i++)
      expect((await fetch(link, { headers: { accept: 'text/html' } })).status).toBe(200);
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Runs' }).waitFor();
    const again = (await person(world.browser)).page;
    await again.goto(link);
    await again.getByRole('button', { name: 'Sign in' }).click();
    await again.getByRole('heading', { name: 'Link already used' }).waitFor();
    expect(await seriousViolations(again)).toEqual([]);
    expect(await again.getByText('already been used').count()).toBe(1);
  });

  it('logs refused forms as security events and never a token, key, link or session', () => {
    const denied = log
      .lines()
      .map((line) => JSON.parse(line) as { event?: string; route?: string })
      .filter((entry) => entry.event === 'authz.denied' && entry.route?.startsWith('/app/'));
    expect(denied.length).toBeGreaterThan(0);
    expect(log.leaking(secrets)).toEqual([]);
  });
});
