import type { Runledger, WorkerActor } from '@runledger/core';
import {
  JobLease,
  RouterJob,
  WorkerAcceptBody,
  WorkerArtifactsBody,
  WorkerCompleteBody,
  WorkerFailBody,
  WorkerHeartbeat,
  WorkerHeartbeatBody,
  WorkerLeaseBody,
  WorkerLogsBody,
  WorkerRegisterBody,
  WorkerRegistered,
  WorkerStatusBody,
} from '@runledger/core/schemas';
import type { z } from 'zod';
import type { Request } from 'express';
import { internalCredentialGuard } from '../http/credential.js';
import { defineRoute, type Route } from '../http/route.js';
import { JobParams } from './params.js';

export interface WorkerRouteDeps {
  runledger: Runledger;
  /** WORKER_REGISTRATION_KEY; null turns registration off (503). */
  registrationKey: string | null;
}

const STALE_LEASE =
  'A stale, expired, superseded or wrong lease token, or a job not in the needed state: 409 and nothing changes.';

/** 503 while the key is unset (docs/router.md), 401 for a missing or different key. */
function registrationGuard(key: string | null): (req: Request) => void {
  return internalCredentialGuard({
    header: 'X-Registration-Key',
    secret: key,
    setting: 'WORKER_REGISTRATION_KEY',
  });
}

export function workerRoutes({ runledger, registrationKey }: WorkerRouteDeps): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/workers/register',
      summary: 'Registers a worker and returns its worker_token once',
      description:
        'Needs `X-Registration-Key` equal to WORKER_REGISTRATION_KEY (503 while unset, 401 when missing or ' +
        'different). The worker_token (256 bits) is shown only here; the server keeps its SHA-256. Writes ' +
        '`worker_registered`.',
      tag: 'workers',
      auth: 'none',
      credentialHeader: 'X-Registration-Key',
      precondition: registrationGuard(registrationKey),
      body: WorkerRegisterBody,
      status: 201,
      response: WorkerRegistered,
      errors: [401, 503],
      handler: async ({ body }) => runledger.router.registerWorker(body),
    }),
    defineRoute({
      method: 'post',
      path: '/workers/heartbeat',
      summary: 'Records the worker as alive and renews its live leases',
      description:
        'Every unexpired lease of this worker gets lease_expires_at = now + LEASE_TTL_SECONDS.',
      tag: 'workers',
      auth: 'worker',
      body: WorkerHeartbeatBody,
      status: 200,
      response: WorkerHeartbeat,
      handler: async ({ actor }) => runledger.router.heartbeat(actor),
    }),
    defineRoute({
      method: 'post',
      path: '/workers/jobs/lease',
      summary: 'Leases the oldest queued job of the worker’s node class',
      description:
        'Returns the job with a fresh lease_token (shown only here; stored hashed) valid until ' +
        'lease_expires_at, or 204 when nothing is queued. Writes `job_leased`.',
      tag: 'workers',
      auth: 'worker',
      body: WorkerLeaseBody,
      status: 200,
      response: JobLease,
      noContent: 'No queued job for this node class',
      handler: async ({ actor }) => runledger.router.leaseJob(actor),
    }),
    ...leaseCallRoutes(runledger),
  ];
}

/** A worker call on one job under its lease: only the action, the body and the use case differ. */
function leaseCall<B extends z.ZodType>(
  action: string,
  summary: string,
  description: string,
  body: B,
  call: (actor: WorkerActor, jobId: string, input: z.output<B>) => Promise<RouterJob>,
) {
  return defineRoute({
    method: 'post',
    path: `/workers/jobs/{job_id}/${action}`,
    summary,
    description,
    tag: 'workers',
    auth: 'worker',
    params: JobParams,
    body,
    status: 200,
    response: RouterJob,
    errors: [404, 409],
    handler: async ({ actor, params, body: input }) =>
      call(actor, params.job_id, input as z.output<B>),
  });
}

/** The calls a worker makes on a job it holds, each checked against its lease token. */
function leaseCallRoutes(runledger: Runledger): Route[] {
  return [
    leaseCall(
      'accept',
      'leased → running; billing starts now',
      `Writes \`worker_job_accepted\`. ${STALE_LEASE}`,
      WorkerAcceptBody,
      (actor, jobId, input) => runledger.router.acceptJob(actor, jobId, input),
    ),
    leaseCall(
      'status',
      'Reports progress (0–100) and a message on a running job',
      STALE_LEASE,
      WorkerStatusBody,
      (actor, jobId, input) => runledger.router.reportStatus(actor, jobId, input),
    ),
    leaseCall(
      'logs',
      'Appends log lines to a running job',
      STALE_LEASE,
      WorkerLogsBody,
      (actor, jobId, input) => runledger.router.appendLogs(actor, jobId, input),
    ),
    leaseCall(
      'artifacts',
      'Reports artifacts of a running job',
      `Writes one \`artifact_reported\` receipt per artifact. ${STALE_LEASE}`,
      WorkerArtifactsBody,
      (actor, jobId, input) => runledger.router.reportArtifacts(actor, jobId, input),
    ),
    leaseCall(
      'complete',
      'running → completed; the server computes the cost',
      'cost = whole seconds from accept to now × the class rate / 3600, half-up to cents (billed_seconds ' +
        `says how many). Writes \`worker_job_completed\` with the cost. ${STALE_LEASE}`,
      WorkerCompleteBody,
      (actor, jobId, input) => runledger.router.completeWorkerJob(actor, jobId, input),
    ),
    leaseCall(
      'fail',
      'leased or running → failed, with the worker’s error text',
      `Writes \`worker_job_failed\`. ${STALE_LEASE}`,
      WorkerFailBody,
      (actor, jobId, input) => runledger.router.failWorkerJob(actor, jobId, input),
    ),
  ];
}
