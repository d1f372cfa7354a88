import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

function findChromium(): string | undefined {
  return CANDIDATES.find((path) => existsSync(path));
}

/**
 * The path of Debian's `chromium`, installing it (apt-get, as root) when it is missing, so that the
 * browser suites run on a fresh machine and in CI instead of skipping. Throws with the reason when
 * it cannot be installed: a browser test never passes without a browser.
 */
export function ensureChromium(): string {
  const found = findChromium();
  if (found !== undefined) return found;
  const apt = (args: string[]) =>
    execFileSync('apt-get', args, {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  try {
    apt(['install', '-y', '--no-install-recommends', 'chromium']);
  } catch {
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', 'chromium']);
  }
  const installed = findChromium();
  if (installed === undefined)
    throw new Error('chromium is not installed and apt-get could not install it');
  return installed;
}

/** A headless Chromium for one test file; close it in afterAll. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: ensureChromium(),
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

/** Collects a page's console errors and page errors (CSP violations appear as console errors). */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error: Error) => errors.push(error.message));
  return errors;
}

/** Desktop and phone viewports the page tests take screenshots at. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
