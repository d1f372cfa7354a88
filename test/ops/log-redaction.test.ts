import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CREDENTIAL_HEADERS } from '@runledger/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog, type CapturedLog } from '../helpers/captured-log.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SERVER_SRC = resolve(import.meta.dirname, '../../server/src');
/** Headers the server reads that carry no credential. */
// Headers the server reads that carry no secret: a request id, the web app's same-origin checks
// (Origin, Host, Sec-Fetch-Site) and conditional GETs (If-None-Match).
const NOT_CREDENTIALS = new Set([
  'x-request-id',
  'origin',
  'host',
  'sec-fetch-site',
  'if-none-match',
]);
const SECRET = 'S3CRET-never-in-the-log-0123456789';

async function sourceFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await sourceFiles(path)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

/** Every header name the server's code reads: req.get('…'), req.header('…'), and declared credential headers. */
async function headersRead(): Promise<Set<string>> {
  const pattern =
    /(?:req\.get|req\.header)\(\s*'([^']+)'|(?:credentialHeader|header):\s*'([^']+)'/g;
  const names = new Set<string>();
  for (const file of await sourceFiles(SERVER_SRC)) {
    for (const match of (await readFile(file, 'utf8')).matchAll(pattern)) {
      names.add((match[1] ?? match[2]!).toLowerCase());
    }
  }
  return names;
}

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
}

/** Paths whose template or query carries a token: `{share_token}`, `?token=`. */
async function tokenBearingPaths(baseUrl: string): Promise<Array<{ method: string; url: string }>> {
  const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as OpenApi;
  const found: Array<{ method: string; url: string }> = [];
  for (const [template, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const params = operation.parameters ?? [];
      const inPath = params.filter((p) => p.in === 'path' && /token/i.test(p.name));
      const inQuery = params.filter((p) => p.in === 'query' && /token/i.test(p.name));
      if (inPath.length === 0 && inQuery.length === 0) continue;
      let url = template;
      for (const p of inPath) url = url.replace(`{${p.name}}`, SECRET);
      url = url.replace(/\{[^}]+\}/g, 'x');
      if (inQuery.length > 0) url += `?${inQuery.map((p) => `${p.name}=${SECRET}`).join('&')}`;
      found.push({ method: method.toUpperCase(), url });
    }
  }
  return found;
}

describe('log redaction', () => {
  let log: CapturedLog;
  let server: TestServer;

  beforeAll(async () => {
    log = captureLog();
    server = await startTestServer({ LOG_LEVEL: 'trace' }, { logger: log.logger });
  });
  afterAll(() => server.close());

  it('covers every header the server reads a credential from', async () => {
    const read = await headersRead();
    // The scan finds what it must, so a broken pattern cannot pass by finding nothing.
    for (const known of ['authorization', 'x-api-key', 'x-runner-token', 'x-internal-key']) {
      expect(read).toContain(known);
    }
    const credentials = [...read].filter((h) => !NOT_CREDENTIALS.has(h));
    expect(CREDENTIAL_HEADERS).toEqual(expect.arrayContaining(credentials));
  });

  it('keeps credential headers and token-bearing paths of both APIs out of every log line', async () => {
    const paths = [
      ...(await tokenBearingPaths(server.url)).map((p) => ({ ...p, base: server.url })),
      ...(await tokenBearingPaths(server.routerUrl)).map((p) => ({ ...p, base: server.routerUrl })),
    ];
    expect(paths.map((p) => `${p.method} ${p.url.split('?')[0]}`)).toEqual(
      expect.arrayContaining([
        `GET /share/${SECRET}`,
        `GET /share/${SECRET}/pdf`,
        'GET /auth/verify',
        'GET /auth/accept-invite',
      ]),
    );
    const headers = Object.fromEntries(
      CREDENTIAL_HEADERS.filter((h) => h !== 'set-cookie').map((h) => [h, SECRET]),
    );
    headers['authorization'] = `Bearer ${SECRET}`;
    for (const { method, url, base } of paths) {
      // Through the real server and its access log …
      await fetch(`${base}${url}`, { method, headers });
      // … and as a request object someone might log whole.
      log.logger.info(
        {
          req: { method, url, originalUrl: url, query: { token: SECRET }, headers },
          res: { headers: { 'set-cookie': `session=${SECRET}` } },
        },
        'request object',
      );
    }
    expect(log.lines().length).toBeGreaterThan(paths.length);
    expect(log.leaking([SECRET])).toEqual([]);
  });
});
