import * as core from '@runledger/core/schemas';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { ErrorBody, namedDefinitions } from '../http/components.js';
import type { ApiDescription } from '../http/openapi.js';

/** The router API's wire schemas by component name. A router route may only answer with one named here. */
const ROUTER_NAMED: Record<string, z.ZodType> = {
  Error: ErrorBody,
  JobType: core.JobType,
  JobStatus: core.JobStatus,
  NodeClass: core.NodeClass,
  MemberStatus: core.MemberStatus,
  DatasetStatus: core.DatasetStatus,
  NodeStatus: core.NodeStatus,
  RouterReceiptType: core.RouterReceiptType,
  RouterHealth: core.RouterHealth,
  RouterSummary: core.RouterSummary,
  RouterMember: core.RouterMember,
  MemberActivated: core.MemberActivated,
  RouterMemberStatus: core.RouterMemberStatus,
  Dataset: core.Dataset,
  DatasetList: core.DatasetList,
  DatasetAccess: core.DatasetAccess,
  ComputeNode: core.ComputeNode,
  NodeClassInfo: core.NodeClassInfo,
  ComputeInventory: core.ComputeInventory,
  ComputeQuote: core.ComputeQuote,
  JobArtifact: core.JobArtifact,
  RouterJob: core.RouterJob,
  JobLease: core.JobLease,
  WorkerRegistered: core.WorkerRegistered,
  RouterWorker: core.RouterWorker,
  RouterWorkerList: core.RouterWorkerList,
  WorkerHeartbeat: core.WorkerHeartbeat,
  MemberCreateBody: core.MemberCreateBody,
  MemberActivateBody: core.MemberActivateBody,
  DatasetCreateBody: core.DatasetCreateBody,
  DatasetAccessBody: core.DatasetAccessBody,
  NodeRegisterBody: core.NodeRegisterBody,
  QuoteBody: core.QuoteBody,
  JobCreateBody: core.JobCreateBody,
  JobStartBody: core.JobStartBody,
  JobManualCompleteBody: core.JobManualCompleteBody,
  JobCancelBody: core.JobCancelBody,
  WorkerRegisterBody: core.WorkerRegisterBody,
  WorkerHeartbeatBody: core.WorkerHeartbeatBody,
  WorkerLeaseBody: core.WorkerLeaseBody,
  WorkerAcceptBody: core.WorkerAcceptBody,
  WorkerStatusBody: core.WorkerStatusBody,
  WorkerLogsBody: core.WorkerLogsBody,
  ArtifactInput: core.ArtifactInput,
  WorkerArtifactsBody: core.WorkerArtifactsBody,
  WorkerCompleteBody: core.WorkerCompleteBody,
  WorkerFailBody: core.WorkerFailBody,
};

function registerWorkerScheme(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'workerToken', {
    type: 'http',
    scheme: 'bearer',
    description:
      'The worker_token returned once by POST /workers/register (256 bits; the server keeps only its SHA-256)',
  });
}

export const ROUTER_API: ApiDescription = {
  title: 'runledger router',
  version: '0.1',
  description: [
    'Router API v0.1: members, datasets, compute quotes, jobs and workers with fenced leases.',
    'Served on its own listener (ROUTER_HOST:ROUTER_PORT, loopback by default): member, dataset, compute, job and',
    'admin routes have no authentication, so this listener must not be exposed publicly. /workers/* routes need',
    '`Authorization: Bearer <worker_token>`; POST /workers/register needs `X-Registration-Key` equal to',
    'WORKER_REGISTRATION_KEY (503 while that is unset).',
    'Money is a decimal string with 2 places in USD; rates are server constants (a caller-supplied `rate` or',
    '`hourly_rate` is accepted and ignored). Times are ISO 8601 UTC with milliseconds.',
    'Every state change writes one receipt line to DATA_DIR/receipts/YYYY-MM-DD.receipts.jsonl (YYYY-MM-DD.<INSTANCE_ID>.receipts.jsonl when INSTANCE_ID is set) before the response',
    'is sent. Every non-2xx response is {detail}. See docs/router.md.',
  ].join(' '),
  tags: {
    health: 'Liveness of the router API.',
    admin: 'Counts and registered workers, for operators.',
    members: 'Members and their yearly memberships.',
    datasets: 'Datasets and who may use them.',
    compute: 'Node classes, compute nodes and price quotes.',
    jobs: 'Jobs: queueing, the manual path and cancellation.',
    workers:
      'Workers: registration, heartbeats, leases and the lifecycle of a leased job (worker token).',
  },
  components: () => namedDefinitions(ROUTER_NAMED),
  securitySchemes: registerWorkerScheme,
};
