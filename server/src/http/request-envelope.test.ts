import express, { type Express } from 'express';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { listen } from './listen.js';
import { requestEnvelope, type FinishedRequest } from './request-envelope.js';
import { helmetHeaders } from './security-headers.js';

/** Headers every answer carries whatever the middleware: left out of the comparison. */
const TRANSPORT = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'etag',
  'x-request-id',
]);

async function answer(app: Express, path: string, headers: Record<string, string> = {}) {
  const server = await listen(app, 0, '127.0.0.1');
  try {
    const response = await fetch(`${server.url}${path}`, { headers });
    await response.text();
    return response;
  } finally {
    await server.close();
  }
}

function withRoutes(app: Express): Express {
  app.disable('x-powered-by');
  app.get('/ok', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/fails', () => {
    throw new Error('planted');
  });
  return app;
}

const shown = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => !TRANSPORT.has(name)));

describe('request envelope', () => {
  it('sets exactly the headers helmet sets, on a success and on an error', async () => {
    expect(helmetHeaders().length).toBeGreaterThanOrEqual(12);
    for (const path of ['/ok', '/fails']) {
      const viaHelmet = express();
      viaHelmet.use(helmet());
      const viaEnvelope = express();
      viaEnvelope.use(requestEnvelope([]));
      const [expected, actual] = [
        await answer(withRoutes(viaHelmet), path),
        await answer(withRoutes(viaEnvelope), path),
      ];
      expect(actual.status).toBe(expected.status);
      expect(shown(actual)).toEqual(shown(expected));
      expect(Object.keys(shown(actual))).toContain('strict-transport-security');
    }
  });

  it('tells every observer once per request, with the status, route and a duration', async () => {
    const seen: [string, number, number][] = [];
    const observers: FinishedRequest[] = [
      (req, res, seconds) => seen.push([`a ${req.id}`, res.statusCode, seconds]),
      (req, res, seconds) => seen.push([`b ${req.id}`, res.statusCode, seconds]),
    ];
    const app = express();
    app.use(requestEnvelope(observers));
    const ok = await answer(withRoutes(app), '/ok', { 'x-request-id': 'plain-1' });
    expect(ok.headers.get('x-request-id')).toBe('plain-1');
    const failed = await answer(withRoutes(app), '/fails', { 'x-request-id': 'not plain!' });
    const generated = failed.headers.get('x-request-id') ?? '';
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => seen.length).toBe(4);
    expect(seen.map(([who, status]) => [who, status])).toEqual([
      ['a plain-1', 200],
      ['b plain-1', 200],
      [`a ${generated}`, 500],
      [`b ${generated}`, 500],
    ]);
    for (const [, , seconds] of seen) {
      expect(seconds).toBeGreaterThanOrEqual(0);
      expect(seconds).toBeLessThan(60);
    }
  });
});
