import express from 'express';
import { describe, expect, it } from 'vitest';
import { listen } from '../http/listen.js';
import { startupGate } from './startup-gate.js';

const ready = async (url: string) => {
  const response = await fetch(`${url}/ready`);
  return { status: response.status, body: (await response.json()) as unknown };
};

describe('the start-up gate', () => {
  it('answers /health 200 and everything else 503 "not ready: starting" until the app is in place', async () => {
    const gate = startupGate();
    const listener = await listen(gate.handler, 0, '127.0.0.1');
    try {
      expect((await fetch(`${listener.url}/health`)).status).toBe(200);
      expect(await ready(listener.url)).toEqual({
        status: 503,
        body: { detail: 'not ready: starting' },
      });
      const post = await fetch(`${listener.url}/auth/request`, { method: 'POST', body: '{}' });
      expect(post.status).toBe(503);
      const app = express();
      app.get('/ready', (_req, res) => {
        res.json({ ok: true });
      });
      gate.open(app);
      expect(await ready(listener.url)).toEqual({ status: 200, body: { ok: true } });
    } finally {
      await listener.close();
    }
  });
});
