import type { AddressInfo } from 'node:net';
import { Role, type Runledger } from '@runledger/core';
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
