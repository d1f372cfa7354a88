import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Runledger } from '@runledger/core';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../http/errors.js';
import type { JwtSigner } from '../http/jwt.js';
import { VERIFY_PAGE_CSP, verifyPageRoutes } from './verify-page.js';

async function serve(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  const router = express.Router();
  for (const route of verifyPageRoutes({ dir }))
    route.mount(router, { runledger: {} as Runledger, signer: {} as JwtSigner });
  app.use(router);
  app.use(errorHandler(pino({ level: 'silent' })));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the verify page routes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-verify-routes-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('answer 503 with a detail until the page is built, then serve it', async () => {
    const { url, close } = await serve(dir);
    try {
      const missing = await fetch(`${url}/verify/app.js`);
      expect(missing.status).toBe(503);
      expect(await missing.json()).toEqual({
        detail: 'the verify page is not built on this server: run npm run build:verify-page',
      });
      await writeFile(join(dir, 'app.js'), 'console.log(1);\n');
      const built = await fetch(`${url}/verify/app.js`);
      expect(built.status).toBe(200);
      expect(built.headers.get('content-security-policy')).toBe(VERIFY_PAGE_CSP);
      expect(built.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(await built.text()).toBe('console.log(1);\n');
    } finally {
      await close();
    }
  });
});
