import { notFound } from '../errors.js';
import { newJobLeaseState } from '../leases/machine.js';
import type { JobRecord } from '../ports/router-storage.js';
import type { Repositories } from '../ports/storage.js';
import type { JobCreateBody, RouterJob } from '../schemas/router.js';
import type { RouterUseCases } from './api.js';
import { activeMember, type RouterContext } from './context.js';
import { routerId } from './ids.js';
import { applyJobEvent } from './job-events.js';
import { actualCost, quote } from './pricing.js';
import { toJob } from './views.js';

type JobUseCases = Pick<
  RouterUseCases,
  'createJob' | 'getJob' | 'startJob' | 'completeJob' | 'cancelJob'
>;

export async function jobOrThrow(tx: Repositories, jobId: string): Promise<JobRecord> {
  const job = await tx.jobs.byId(jobId);
  if (job === null) throw notFound('job');
  return job;
}

/** The wire job, read with its artifacts inside the caller's transaction. */
export async function jobView(
  tx: Repositories,
  job: JobRecord,
  maxAttempts: number,
): Promise<RouterJob> {
  return toJob(job, await tx.jobs.artifactsOf(job.job_id), maxAttempts);
}

export function jobUseCases(ctx: RouterContext): JobUseCases {
  const { storage, clock, random, outbox, config } = ctx;
  const max = config.jobMaxAttempts;
  return {
    async createJob(input) {
      // Priced from the server table only; input.rate and input.hourly_rate are never read.
      const priced = quote(input.node_class, input.hours);
      const now = clock.now();
      const at = now.toISOString();
      return outbox.write(async (tx, receipts) => {
        await activeMember(tx, input.member_id, now);
        const job = newJob(input, priced, routerId('job', random), at);
        await tx.jobs.insert(job);
        receipts.push(
          ctx.receipt(
            input.type === 'fine_tune' ? 'fine_tune_job' : 'compute_job',
            at,
            {
              job_id: job.job_id,
              member_id: job.member_id,
              job_type: job.type,
              node_class: job.node_class,
              hours: job.hours,
            },
            job.estimated_amount,
          ),
        );
        return toJob(job, [], max);
      });
    },

    async getJob(jobId) {
      return storage.read(async (tx) => jobView(tx, await jobOrThrow(tx, jobId), max));
    },

    async startJob(jobId) {
      const at = clock.now().toISOString();
      return storage.write(async (tx) => {
        const job = await jobOrThrow(tx, jobId);
        const next = await applyJobEvent(tx, job, { type: 'start' }, at, { accepted_at: at });
        return jobView(tx, next.job, max);
      });
    },

    async completeJob(jobId, input) {
      const now = clock.now();
      const at = now.toISOString();
      return outbox.write(async (tx, receipts) => {
        const job = await jobOrThrow(tx, jobId);
        // The fence (running, never leased) is checked before the cost, which needs accepted_at.
        const startedAt = job.accepted_at === null ? now : new Date(job.accepted_at);
        const cost = actualCost(job.node_class, startedAt, now);
        const next = await applyJobEvent(tx, job, { type: 'manual_complete' }, at, {
          result: input.result === undefined ? null : JSON.stringify(input.result),
          cost: cost.amount,
          billed_seconds: cost.seconds,
          finished_at: at,
        });
        receipts.push(
          ctx.receipt(
            'worker_job_completed',
            at,
            { job_id: jobId, worker_id: null, billed_seconds: cost.seconds },
            cost.amount,
          ),
        );
        return jobView(tx, next.job, max);
      });
    },

    async cancelJob(jobId) {
      const at = clock.now().toISOString();
      return storage.write(async (tx) => {
        const job = await jobOrThrow(tx, jobId);
        const next = await applyJobEvent(tx, job, { type: 'cancel' }, at, { finished_at: at });
        return jobView(tx, next.job, max);
      });
    },
  };
}

/** A new queued job, priced from the server's table. */
function newJob(
  input: JobCreateBody,
  priced: ReturnType<typeof quote>,
  jobId: string,
  at: string,
): JobRecord {
  return {
    ...newJobLeaseState(),
    lease_expires_at: null,
    job_id: jobId,
    member_id: input.member_id,
    type: input.type,
    node_class: priced.node_class,
    hours: priced.hours,
    hourly_rate: priced.hourly_rate,
    estimated_amount: priced.amount,
    currency: priced.currency,
    input: input.input === undefined ? null : JSON.stringify(input.input),
    progress: null,
    message: null,
    log_lines: 0,
    result: null,
    error: null,
    cost: null,
    billed_seconds: null,
    created_at: at,
    accepted_at: null,
    finished_at: null,
    updated_at: at,
  };
}
