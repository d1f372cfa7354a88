import type { AddressInfo } from 'node:net';
import { RunledgerError, type Runledger } from '@runledger/core';
import { Role } from '@runledger/core/schemas';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorHandler } from './errors.js';
import type { JwtSigner } from './jwt.js';
import { defineRoute } from './route.js';

describe('defineRoute response checking', () => {
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    // Role is a named component (core enum), so the route is allowed to answer with it.
    const drifting = defineRoute({
      method: 'get',
      path: '/role/{which}',
      summary: 'test',
      tag: 'test',
      auth: 'none',
      params: z.object({ which: z.string() }).strict(),
      status: 200,
      response: Role,
      handler: async ({ params }) => params.which as z.input<typeof Role>,
    });
    const app = express();
    const router = express.Router();
    drifting.mount(router, { runledger: {} as Runledger, signer: {} as JwtSigner });
    app.use(router);
    app.use(errorHandler(pino({ level: 'silent' })));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close());

  it('answers a value inside the schema', async () => {
    const response = await fetch(`${url}/role/owner`);
    expect(response.status).toBe(200);
    expect(await response.json()).toBe('owner');
  });

  it('turns an enum value outside the schema into a generic 500', async () => {
    const response = await fetch(`${url}/role/admin`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ detail: 'internal server error' });
  });
});

describe('defineRoute worker auth, preconditions and 204', () => {
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const runledger = {
      router: {
        authenticateWorker: async (token: string) => {
          if (token !== 'good') throw new RunledgerError('unauthenticated', 'unknown worker');
          return { worker_id: 'wkr_1', name: 'w', node_class: 'gpu_a_96gb' as const };
        },
      },
    } as unknown as Runledger;
    const routes = [
      defineRoute({
        method: 'post',
        path: '/maybe/{what}',
        summary: 'test',
        tag: 'test',
        auth: 'worker',
        params: z.object({ what: z.string() }).strict(),
        precondition: (req) => {
          if (req.get('x-off') !== undefined) throw new RunledgerError('unavailable', 'off');
        },
        status: 200,
        response: Role,
        noContent: 'nothing',
        handler: async ({ actor, params }) =>
          params.what === 'none' ? null : actor.worker_id === 'wkr_1' ? 'owner' : 'member',
      }),
    ];
    const app = express();
    const router = express.Router();
    for (const route of routes) route.mount(router, { runledger, signer: {} as JwtSigner });
    app.use(router);
    app.use(errorHandler(pino({ level: 'silent' })));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close());

  const post = (what: string, headers: Record<string, string> = {}) =>
    fetch(`${url}/maybe/${what}`, { method: 'POST', headers });

  it('resolves the worker from the bearer token and answers 401 without or with a bad one', async () => {
    const ok = await post('x', { authorization: 'Bearer good' });
    expect([ok.status, await ok.json()]).toEqual([200, 'owner']);
    expect((await post('x')).status).toBe(401);
    expect((await post('x', { authorization: 'Bearer bad' })).status).toBe(401);
    expect((await post('x', { 'x-api-key': 'good' })).status).toBe(401);
  });

  it('answers 204 with no body when the handler returns null', async () => {
    const none = await post('none', { authorization: 'Bearer good' });
    expect([none.status, await none.text()]).toEqual([204, '']);
  });

  it('runs the precondition after authentication', async () => {
    expect((await post('x', { 'x-off': '1' })).status).toBe(401);
    expect((await post('x', { 'x-off': '1', authorization: 'Bearer good' })).status).toBe(503);
  });
});
