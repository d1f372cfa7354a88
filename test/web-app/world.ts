import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { collectPageErrors, launchBrowser } from '../helpers/browser.js';
import { startTestServer } from '../helpers/server.js';

/** A real SMTP server on loopback that keeps every message, for reading the links the server mails. */
export interface Mailbox {
  url: string;
  /** Waits for the next message to `to` carrying a link to `path`; returns the link. */
  linkFor(to: string, path: '/auth/verify' | '/auth/accept-invite'): Promise<string>;
  close(): Promise<void>;
}

/** Quoted-printable as nodemailer writes long lines: soft breaks and `=XX` escapes. */
const unquote = (data: string) =>
  data
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

export async function openMailbox(): Promise<Mailbox> {
  const messages: { to: string[]; text: string }[] = [];
  const arrived = new EventEmitter();
  const tick = setInterval(() => arrived.emit('tick'), 200);
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), text: unquote(data) });
        arrived.emit('message');
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    async linkFor(to, path) {
      const pattern = new RegExp(`https?://[^\\s"<>]+${path}\\?token=[A-Za-z0-9_-]+`);
      const take = () => {
        const found = messages.find((m) => m.to.includes(to) && pattern.test(m.text));
        if (found === undefined) return undefined;
        messages.splice(messages.indexOf(found), 1);
        return pattern.exec(found.text)![0];
      };
      // Waits for delivery (the server sends after its commit), not for a fixed time.
      for (const started = Date.now(); Date.now() - started < 20_000;) {
        const link = take();
        if (link !== undefined) return link;
        await new Promise<void>((resolve) =>
          arrived.once('message', resolve).once('tick', resolve),
        );
      }
      throw new Error(`no ${path} link reached ${to}`);
    },
    close: () => {
      clearInterval(tick);
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A link mailed with PUBLIC_BASE_URL, pointed at the test server. */
export const onServer = (link: string, serverUrl: string) => {
  const url = new URL(link);
  return `${serverUrl}${url.pathname}${url.search}`;
};

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** Runs axe-core in the page (injected through the debugging protocol, so the page's CSP stays as served). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  // A string, so the page's globals need no DOM types here.
  const ids = await page.evaluate<string[]>(`axe.run().then((result) => result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ': ' + JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))))`);
  return ids;
}

/** A person's own browser: a context (cookies) and one page whose console errors are collected. */
export async function person(browser: Browser, viewport = { width: 1280, height: 900 }) {
  const context: BrowserContext = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  return { context, page, errors };
}

/** Signs in through the e-mail: asks for a link on the page, opens it from the mailbox, presses the button. */
export async function signInByMail(page: Page, serverUrl: string, mailbox: Mailbox, email: string) {
  await page.goto(`${serverUrl}/app/sign-in`);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
  const link = onServer(await mailbox.linkFor(email, '/auth/verify'), serverUrl);
  await page.goto(link);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return link;
}

/** What a browser suite runs against: a test server, the mailbox it sends its links to, a Chromium. */
export type BrowserWorld = Awaited<ReturnType<typeof openBrowserWorld>>;

/** A fresh mailbox, a test server mailing to it (`env`, `options` as startTestServer takes), a Chromium. */
export async function openBrowserWorld(
  env: Record<string, string> = {},
  options: Parameters<typeof startTestServer>[1] = {},
) {
  const mailbox = await openMailbox();
  // Nothing started stays open when a later step fails.
  const server = await startTestServer({ SMTP_URL: mailbox.url, ...env }, options).catch(
    async (error: unknown) => {
      await mailbox.close();
      throw error;
    },
  );
  const browser = await launchBrowser().catch(async (error: unknown) => {
    await server.close();
    await mailbox.close();
    throw error;
  });
  return {
    server,
    mailbox,
    browser,
    close: async () => {
      await browser.close();
      await server.close();
      await mailbox.close();
    },
  };
}

/** A person's own browser, signed in through the e-mail and showing the runs page. */
export async function signedIn(world: BrowserWorld, email: string) {
  const someone = await person(world.browser);
  await signInByMail(someone.page, world.server.url, world.mailbox, email);
  await someone.page.getByRole('heading', { name: 'Runs' }).waitFor();
  return someone;
}

/** The invitation mailed to `email`, pointed at the test server. */
export async function invitationLink(world: BrowserWorld, email: string) {
  return onServer(await world.mailbox.linkFor(email, '/auth/accept-invite'), world.server.url);
}

/** The invitee's own browser, signed in as a member by accepting the mailed invitation. */
export async function acceptedInvitation(world: BrowserWorld, email: string) {
  const invitee = await person(world.browser);
  await invitee.page.goto(await invitationLink(world, email));
  await invitee.page.getByRole('button', { name: 'Accept the invitation and sign in' }).click();
  await invitee.page.getByText(`${email} (member)`).waitFor();
  return invitee;
}

/**
 * Where the screenshots docs/app.md shows are written: docs/app/ with `RUNLEDGER_APP_SCREENSHOTS=1`,
 * otherwise a temporary folder, so an ordinary run leaves the repository untouched.
 */
export function screenshotFolder(): string {
  const folder =
    process.env['RUNLEDGER_APP_SCREENSHOTS'] === '1'
      ? join(import.meta.dirname, '..', '..', 'docs', 'app')
      : mkdtempSync(join(tmpdir(), 'runledger-app-shots-'));
  mkdirSync(folder, { recursive: true });
  return folder;
}
