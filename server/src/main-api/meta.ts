import { RunledgerError } from '@runledger/core';
import { defineRoute, type Route } from '../http/route.js';
import { Health } from './components.js';
import type { Readiness } from '../ops/readiness.js';

export function metaRoutes(readiness: Readiness): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/health',
      summary: 'Liveness: the process answers',
      tag: 'meta',
      auth: 'none',
      status: 200,
      response: Health,
      handler: async () => ({ ok: true as const }),
    }),
    defineRoute({
      method: 'get',
      path: '/ready',
      summary: 'Readiness: storage answers a query and the receipt sink takes a write',
      description:
        '503 with a detail naming what is not ready: `starting`, `draining` (after SIGTERM), or the ' +
        'failing checks (`storage`, `receipt_sink`, `disk_space`, `signing_key`). Load balancers route only to a ready instance.',
      tag: 'meta',
      auth: 'none',
      status: 200,
      response: Health,
      errors: [503],
      handler: async () => {
        const answer = await readiness.check();
        if (!answer.ready) {
          throw new RunledgerError('unavailable', `not ready: ${answer.notReady.join(', ')}`);
        }
        return { ok: true as const };
      },
    }),
  ];
}
