import express from 'express';
import type { RequestListener } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listen } from './listen.js';

describe('requests born with the served app’s prototypes', () => {
  it('are node:http’s own until adopt, then arrive as the app’s, and Express serves both', async () => {
    const app = express();
    app.set('query parser', 'simple');
    app.get('/echo', (req, res) => {
      res.setHeader('X-Seen', 'yes');
      res.status(201).json({ q: req.query.q, appOf: req.app === app });
    });
    // What each request and response looked like when node:http handed them over, before Express.
    const arrived: boolean[] = [];
    const handler: RequestListener = (req, res) => {
      arrived.push(
        Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response,
      );
      app(req, res);
    };
    const server = await listen(handler, 0, '127.0.0.1');
    try {
      const ask = async () => {
        const response = await fetch(`${server.url}/echo?q=1`);
        expect(response.status).toBe(201);
        expect(response.headers.get('x-seen')).toBe('yes');
        expect(await response.json()).toEqual({ q: '1', appOf: true });
      };
      await ask();
      server.adopt(app);
      await ask();
      await ask();
    } finally {
      await server.close();
    }
    expect(arrived).toEqual([false, true, true]);
  });
});
