import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { RunledgerError } from '@runledger/core';
import { defineRoute, type Route } from '../http/route.js';

/**
 * The in-browser verifier (docs/verify-page.md): `@runledger/verify` bundled for the browser by
 * `npm run build:verify-page` into verify-tool/dist/verify-page/, served as three same-origin files
 * so the CSP allows no inline code at all. The page may read the deployment's published keys from
 * this origin (`connect-src 'self'`) and sends nothing anywhere.
 */
export const VERIFY_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ASSETS = [
  { path: '/verify', file: 'index.html', type: 'text/html; charset=utf-8', what: 'The page' },
  {
    path: '/verify/app.js',
    file: 'app.js',
    type: 'text/javascript; charset=utf-8',
    what: 'The page’s script: @runledger/verify bundled for the browser',
  },
  {
    path: '/verify/app.css',
    file: 'app.css',
    type: 'text/css; charset=utf-8',
    what: 'The page’s stylesheet',
  },
] as const;

/** Where the build put the page: beside the package's own dist/index.js. */
function pageDir(): string {
  const entry = createRequire(import.meta.url).resolve('@runledger/verify');
  return join(dirname(entry), 'verify-page');
}

/** The page's files, read once each; a missing build is a 503 until it is there. */
function assetReader(dir: string | undefined): (file: string) => Promise<Buffer> {
  const cache = new Map<string, Buffer>();
  return async (file) => {
    const kept = cache.get(file);
    if (kept !== undefined) return kept;
    let bytes: Buffer;
    try {
      bytes = await readFile(join(dir ?? pageDir(), file));
    } catch {
      throw new RunledgerError(
        'unavailable',
        'the verify page is not built on this server: run npm run build:verify-page',
      );
    }
    cache.set(file, bytes);
    return bytes;
  };
}

/** `dir`: where the built page is; by default verify-tool/dist/verify-page/. */
export function verifyPageRoutes({ dir }: { dir?: string } = {}): Route[] {
  const asset = assetReader(dir);
  return ASSETS.map(({ path, file, type, what }) =>
    defineRoute({
      method: 'get',
      path,
      summary: `${what} of the in-browser verifier (no credential; checks run in the browser)`,
      tag: 'verify',
      auth: 'none',
      status: 200,
      response: undefined,
      raw: { contentType: type.split(';')[0]!, description: what },
      errors: [503],
      handler: async ({ res }) => {
        const bytes = await asset(file);
        res.status(200);
        res.setHeader('Content-Type', type);
        res.setHeader('Content-Security-Policy', VERIFY_PAGE_CSP);
        res.setHeader('Cache-Control', 'no-cache');
        res.end(bytes);
      },
    }),
  );
}
