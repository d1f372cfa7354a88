import { RouterHealth } from '@runledger/core/schemas';
import { defineRoute, type Route } from '../http/route.js';

export function healthRoutes(): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/health',
      summary: 'Liveness of the router API, with its version',
      tag: 'health',
      auth: 'none',
      status: 200,
      response: RouterHealth,
      handler: async () => ({ ok: true as const, version: '0.1' as const }),
    }),
  ];
}
