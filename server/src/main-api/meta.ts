import { defineRoute, type Route } from '../http/route.js';
import { Health } from './components.js';

export function metaRoutes(): Route[] {
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
  ];
}
