import type { Runledger } from '@runledger/core';
import { RouterSummary, RouterWorker, RouterWorkerList } from '@runledger/core/schemas';
import { defineRoute, type Route } from '../http/route.js';
import { PageQuery, pageOf } from '../http/paging.js';
import { WorkerParams } from './params.js';

/** Operator views. No auth: the router listener is loopback-only by default (docs/router.md). */
export function adminRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/admin/summary',
      summary: 'Counts: members by status, datasets, jobs by status, workers, nodes',
      tag: 'admin',
      auth: 'none',
      status: 200,
      response: RouterSummary,
      handler: async () => runledger.router.summary(),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/workers',
      summary: 'Registered workers in registration order, paged; never a token or a hash',
      tag: 'admin',
      auth: 'none',
      query: PageQuery,
      status: 200,
      response: RouterWorkerList,
      handler: async ({ query }) => {
        const page = await runledger.router.listWorkers(pageOf(query));
        return { workers: page.items, next: page.next };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/workers/{worker_id}',
      summary: 'One worker: class, last heartbeat, live leases; never a token or a hash',
      tag: 'admin',
      auth: 'none',
      params: WorkerParams,
      status: 200,
      response: RouterWorker,
      errors: [404],
      handler: async ({ params }) => runledger.router.getWorker(params.worker_id),
    }),
  ];
}
