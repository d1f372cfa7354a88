import { conflict, notFound, unauthenticated } from '../errors.js';
import type { JobEvent } from '../leases/machine.js';
import type { JobArtifactRecord, JobRecord, WorkerRecord } from '../ports/router-storage.js';
import type { RouterReceiptInput } from '../ports/receipt-sink.js';
import { lockKeys } from '../ports/lock-keys.js';
import type { WriteTransaction } from '../ports/storage.js';
import { constantTimeEqual, hashSecret, newSecret } from '../secrets/secret.js';
import type { RouterJob } from '../schemas/router.js';
import type { RouterUseCases, WorkerActor } from './api.js';
import type { RouterContext } from './context.js';
import { LEASE_TOKEN_PREFIX, WORKER_TOKEN_PREFIX, routerId } from './ids.js';
import { applyJobEvent, endWithJobEvent, type JobExtras } from './job-events.js';
import { jobOrThrow } from './jobs.js';
import { actualCost } from './pricing.js';
import { sharedLookups } from '../shared-lookups.js';
import { toJob } from './views.js';

type WorkerUseCases = Pick<
  RouterUseCases,
  | 'registerWorker'
  | 'authenticateWorker'
  | 'heartbeat'
  | 'leaseJob'
  | 'acceptJob'
  | 'reportStatus'
  | 'appendLogs'
  | 'reportArtifacts'
  | 'completeWorkerJob'
  | 'failWorkerJob'
>;

const MAX_TOKEN_LENGTH = 256;

type HeldEvent = 'accept' | 'status' | 'log' | 'artifact' | 'complete' | 'fail';
type Held = ReturnType<typeof heldCalls>;

/** The job a worker call on a held lease names, and the lease machine's event for it. */
async function heldEvent(
  tx: WriteTransaction,
  worker: WorkerActor,
  jobId: string,
  leaseToken: string,
  type: HeldEvent,
  now: Date,
): Promise<{ job: JobRecord; event: JobEvent }> {
  const job = await jobOrThrow(tx, jobId);
  if (typeof leaseToken !== 'string' || leaseToken.length > MAX_TOKEN_LENGTH) {
    throw conflict('stale lease: the token does not hold this job');
  }
  const event: JobEvent = {
    type,
    token_hash: hashSecret(leaseToken),
    worker_id: worker.worker_id,
    now,
  };
  return { job, event };
}

/**
 * The end of a lease's transaction, sent together after its reads: the job's artifacts for the
 * answer (read once the transaction has ended: awaited inside it, they would hold its end back),
 * then the worker's last-seen and the fenced change, which end the transaction: where the fence
 * refuses, all of it is refused with a 409. The artifacts' failure fails the transaction; their
 * handler only keeps it from going unheard when the transaction fails first.
 */
function endWithChange(
  tx: WriteTransaction,
  worker: WorkerActor,
  job: JobRecord,
  event: JobEvent,
  at: string,
  extras: JobExtras = {},
): { job: JobRecord; artifacts: Promise<JobArtifactRecord[]> } {
  const artifacts = tx.jobs.artifactsOf(job.job_id);
  artifacts.catch(() => undefined);
  tx.endWith(tx.workers.touch(worker.worker_id, at));
  return { job: endWithJobEvent(tx, job, event, at, extras).job, artifacts };
}

const subject = (job: JobRecord) => ({
  job_id: job.job_id,
  worker_id: job.worker_id,
  lease_epoch: job.lease_epoch,
  attempt: job.attempt,
});

/** The two shapes of a worker call on a held lease. */
function heldCalls(ctx: RouterContext) {
  const { clock, outbox, config } = ctx;
  const max = config.jobMaxAttempts;
  return {
    /**
     * One worker call on a held lease: read the job, let the lease machine check token, status and
     * expiry, and change it in one fenced UPDATE, with its receipt if `receipt` gives one. The
     * fenced change, the worker's last-seen and the receipt's outbox row end the transaction
     * together; where the row no longer matches what was read, all of it is refused with a 409.
     */
    async held(
      worker: WorkerActor,
      jobId: string,
      leaseToken: string,
      type: HeldEvent,
      extras: (job: JobRecord, now: Date) => JobExtras,
      receipt?: (job: JobRecord, at: string) => RouterReceiptInput,
    ): Promise<RouterJob> {
      const now = clock.now();
      const at = now.toISOString();
      const { job, artifacts } = await outbox.write(async (tx, receipts) => {
        const read = await heldEvent(tx, worker, jobId, leaseToken, type, now);
        const next = endWithChange(tx, worker, read.job, read.event, at, extras(read.job, now));
        if (receipt) receipts.push(receipt(next.job, at));
        return next;
      });
      return toJob(job, await artifacts, max);
    },

    /**
     * A worker call on a held lease that writes more once the fenced change has matched (`also`:
     * log lines, artifacts and their receipts), in the same transaction.
     */
    heldThen(
      worker: WorkerActor,
      jobId: string,
      leaseToken: string,
      type: HeldEvent,
      extras: (job: JobRecord, now: Date) => JobExtras,
      also: (
        tx: WriteTransaction,
        job: JobRecord,
        at: string,
        receipts: RouterReceiptInput[],
      ) => Promise<void>,
    ): Promise<RouterJob> {
      const now = clock.now();
      const at = now.toISOString();
      return outbox.write(async (tx, receipts) => {
        const { job, event } = await heldEvent(tx, worker, jobId, leaseToken, type, now);
        // The fenced change, the worker's last-seen and the job's artifacts for the answer, sent
        // together, unless this call adds artifacts: then they are read after.
        const [next, , artifacts] = await Promise.all([
          applyJobEvent(tx, job, event, at, extras(job, now)),
          tx.workers.touch(worker.worker_id, at),
          type === 'artifact' ? null : tx.jobs.artifactsOf(jobId),
        ]);
        await also(tx, next.job, at, receipts);
        return toJob(next.job, artifacts ?? (await tx.jobs.artifactsOf(jobId)), max);
      });
    },
  };
}

/** Registering a worker and recognizing its token on every call. */
function registrationCalls(
  ctx: RouterContext,
): Pick<WorkerUseCases, 'registerWorker' | 'authenticateWorker'> {
  const { storage, clock, random, outbox } = ctx;
  // Every worker call's token, looked up each time (a removed worker is refused at once); calls that
  // arrive together share one read transaction (shared-lookups.ts).
  const workerByTokenHash = sharedLookups<string, WorkerRecord | null>(
    storage,
    (hash) => hash,
    (tx, hash) => tx.workers.byTokenHash(hash),
  );
  return {
    async registerWorker(input) {
      const token = `${WORKER_TOKEN_PREFIX}${newSecret(random)}`;
      const at = clock.now().toISOString();
      const worker: WorkerRecord = {
        worker_id: routerId('wkr', random),
        name: input.name.trim(),
        node_class: input.node_class,
        token_hash: hashSecret(token),
        created_at: at,
        last_seen_at: null,
      };
      await outbox.write(async (tx, receipts) => {
        await tx.workers.insert(worker);
        receipts.push(
          ctx.receipt('worker_registered', at, {
            worker_id: worker.worker_id,
            node_class: worker.node_class,
          }),
        );
      });
      return {
        worker_id: worker.worker_id,
        worker_token: token,
        name: worker.name,
        node_class: worker.node_class,
        created_at: at,
      };
    },

    async authenticateWorker(workerToken) {
      if (
        typeof workerToken !== 'string' ||
        workerToken.length === 0 ||
        workerToken.length > MAX_TOKEN_LENGTH
      ) {
        throw unauthenticated('a worker token is required');
      }
      const hash = hashSecret(workerToken);
      const worker = await workerByTokenHash(hash);
      if (worker === null || !constantTimeEqual(worker.token_hash, hash)) {
        throw unauthenticated('unknown worker token');
      }
      return { worker_id: worker.worker_id, name: worker.name, node_class: worker.node_class };
    },
  };
}

/** A worker's heartbeat (renewing its live leases) and its lease of the oldest queued job. */
function leaseCalls(ctx: RouterContext): Pick<WorkerUseCases, 'heartbeat' | 'leaseJob'> {
  const { storage, clock, random, outbox, config } = ctx;
  const max = config.jobMaxAttempts;
  const ttl = config.leaseTtlSeconds;
  return {
    async heartbeat(worker) {
      const now = clock.now();
      const at = now.toISOString();
      return storage.write(async (tx) => {
        if ((await tx.workers.byId(worker.worker_id)) === null) throw notFound('worker');
        await tx.workers.touch(worker.worker_id, at);
        let renewed = 0;
        for (const job of await tx.jobs.liveLeasesOf(worker.worker_id, at)) {
          const event: JobEvent = {
            type: 'heartbeat',
            worker_id: worker.worker_id,
            now,
            ttl_seconds: ttl,
          };
          await applyJobEvent(tx, job, event, at);
          renewed += 1;
        }
        return { worker_id: worker.worker_id, last_seen_at: at, leases_renewed: renewed };
      });
    },

    async leaseJob(worker) {
      const now = clock.now();
      const at = now.toISOString();
      const token = `${LEASE_TOKEN_PREFIX}${newSecret(random)}`;
      const picked = await outbox.write(async (tx, receipts) => {
        // The pick is the one read; the worker's last-seen ends the transaction.
        const [candidate] = await tx.jobs.oldestQueued(worker.node_class, 1);
        if (candidate === undefined) {
          tx.endWith(tx.workers.touch(worker.worker_id, at));
          return null;
        }
        const event: JobEvent = {
          type: 'lease',
          worker_id: worker.worker_id,
          token_hash: hashSecret(token),
          now,
          ttl_seconds: ttl,
        };
        // The job is this transaction's until it ends (`oldestQueued` holds what it returns), so
        // the fenced lease cannot miss; it ends the transaction.
        const next = endWithChange(tx, worker, candidate, event, at);
        receipts.push(ctx.receipt('job_leased', at, subject(next.job)));
        return next;
      });
      if (picked === null) return null;
      const { job: leased, artifacts } = picked;
      return {
        job: toJob(leased, await artifacts, max),
        lease_token: token,
        lease_expires_at: leased.lease_expires_at!,
      };
    },
  };
}

/** Calls on a held lease that keep the job going: accept, status, log lines, artifacts. */
function progressCalls(
  ctx: RouterContext,
  { held, heldThen }: Held,
): Pick<WorkerUseCases, 'acceptJob' | 'reportStatus' | 'appendLogs' | 'reportArtifacts'> {
  const { random } = ctx;
  return {
    acceptJob(worker, jobId, input) {
      return held(
        worker,
        jobId,
        input.lease_token,
        'accept',
        (_job, now) => ({ accepted_at: now.toISOString() }),
        (job, at) => ctx.receipt('worker_job_accepted', at, subject(job)),
      );
    },

    reportStatus(worker, jobId, input) {
      return held(worker, jobId, input.lease_token, 'status', () => ({
        ...(input.progress === undefined ? {} : { progress: input.progress }),
        ...(input.message === undefined ? {} : { message: input.message }),
      }));
    },

    appendLogs(worker, jobId, input) {
      return heldThen(
        worker,
        jobId,
        input.lease_token,
        'log',
        () => ({ add_log_lines: input.lines.length }),
        async (tx, job, at) => {
          await tx.lock(lockKeys.jobLogs(job.job_id));
          await tx.jobs.appendLogs(job.job_id, input.lines, at);
        },
      );
    },

    reportArtifacts(worker, jobId, input) {
      return heldThen(
        worker,
        jobId,
        input.lease_token,
        'artifact',
        () => ({}),
        async (tx, job, at, receipts) => {
          for (const a of input.artifacts) {
            const artifactId = routerId('art', random);
            await tx.jobs.insertArtifact({
              artifact_id: artifactId,
              job_id: job.job_id,
              worker_id: worker.worker_id,
              name: a.name,
              uri: a.uri,
              sha256: a.sha256 ?? null,
              size: a.size ?? null,
              reported_at: at,
            });
            receipts.push(
              ctx.receipt('artifact_reported', at, {
                job_id: job.job_id,
                worker_id: worker.worker_id,
                artifact_id: artifactId,
                name: a.name,
                sha256: a.sha256 ?? null,
              }),
            );
          }
        },
      );
    },
  };
}

/** Calls on a held lease that end the job: complete (billed) and fail. */
function finishCalls(
  ctx: RouterContext,
  { held }: Held,
): Pick<WorkerUseCases, 'completeWorkerJob' | 'failWorkerJob'> {
  return {
    completeWorkerJob(worker, jobId, input) {
      let billed = { amount: '0.00', seconds: 0 };
      return held(
        worker,
        jobId,
        input.lease_token,
        'complete',
        (job, now) => {
          // accepted_at is set by accept, and complete needs running, so it is present when the fence passes.
          billed = actualCost(job.node_class, new Date(job.accepted_at ?? now.toISOString()), now);
          return {
            result: input.result === undefined ? null : JSON.stringify(input.result),
            cost: billed.amount,
            billed_seconds: billed.seconds,
            finished_at: now.toISOString(),
          };
        },
        (job, at) =>
          ctx.receipt(
            'worker_job_completed',
            at,
            { job_id: job.job_id, worker_id: job.worker_id, billed_seconds: billed.seconds },
            billed.amount,
          ),
      );
    },

    failWorkerJob(worker, jobId, input) {
      return held(
        worker,
        jobId,
        input.lease_token,
        'fail',
        (_job, now) => ({ error: input.error, finished_at: now.toISOString() }),
        (job, at) => ctx.receipt('worker_job_failed', at, subject(job)),
      );
    },
  };
}

export function workerUseCases(ctx: RouterContext): WorkerUseCases {
  const held = heldCalls(ctx);
  return {
    ...registrationCalls(ctx),
    ...leaseCalls(ctx),
    ...progressCalls(ctx, held),
    ...finishCalls(ctx, held),
  };
}
