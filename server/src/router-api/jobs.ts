import type { Runledger } from '@runledger/core';
import {
  JobCancelBody,
  JobCreateBody,
  JobManualCompleteBody,
  JobStartBody,
  RouterJob,
} from '@runledger/core/schemas';
import { defineRoute, type Route } from '../http/route.js';
import { JobParams } from './params.js';

export function jobRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/jobs',
      summary: 'Queues a job for an active member',
      description:
        'The estimate is hours × the class rate, half-up to cents; a caller-supplied `rate` or `hourly_rate` ' +
        'is accepted and ignored. Writes `compute_job` (`fine_tune_job` for type fine_tune) with the estimated ' +
        'amount. 403 for an inactive member.',
      tag: 'jobs',
      auth: 'none',
      body: JobCreateBody,
      status: 201,
      response: RouterJob,
      errors: [403, 404],
      handler: async ({ body }) => runledger.router.createJob(body),
    }),
    defineRoute({
      method: 'get',
      path: '/jobs/{job_id}',
      summary: 'One job with its lease, progress, artifacts and cost',
      tag: 'jobs',
      auth: 'none',
      params: JobParams,
      status: 200,
      response: RouterJob,
      errors: [404],
      handler: async ({ params }) => runledger.router.getJob(params.job_id),
    }),
    defineRoute({
      method: 'post',
      path: '/jobs/{job_id}/start',
      summary: 'Manual path: queued → running, without a worker',
      tag: 'jobs',
      auth: 'none',
      params: JobParams,
      body: JobStartBody,
      status: 200,
      response: RouterJob,
      errors: [404, 409],
      handler: async ({ params }) => runledger.router.startJob(params.job_id),
    }),
    defineRoute({
      method: 'post',
      path: '/jobs/{job_id}/complete',
      summary: 'Manual path: running → completed, cost computed by the server',
      description:
        'Only for a job started with /jobs/{job_id}/start (a leased job completes through its worker: 409). ' +
        'The cost is whole seconds from start to now × the class rate, half-up to cents; writes ' +
        '`worker_job_completed` with worker_id null and the cost.',
      tag: 'jobs',
      auth: 'none',
      params: JobParams,
      body: JobManualCompleteBody,
      status: 200,
      response: RouterJob,
      errors: [404, 409],
      handler: async ({ params, body }) => runledger.router.completeJob(params.job_id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/jobs/{job_id}/cancel',
      summary: 'queued, leased or running → canceled; any lease stops working',
      description: 'A canceled job’s lease token gets 409 from then on. 409 from a terminal state.',
      tag: 'jobs',
      auth: 'none',
      params: JobParams,
      body: JobCancelBody,
      status: 200,
      response: RouterJob,
      errors: [404, 409],
      handler: async ({ params }) => runledger.router.cancelJob(params.job_id),
    }),
  ];
}
