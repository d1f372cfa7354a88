import { conflict, invalidInput } from '../errors.js';
import type { JobStatus, RouterReceiptType } from '../schemas/enums.js';
import { constantTimeEqual } from '../secrets/index.js';
import { fenceFor, type JobEventType } from './fence.js';

/** The lease-relevant part of a job row. */
export interface JobLeaseState {
  status: JobStatus;
  /** 1 for the first attempt; an expired lease moves the job to the next one. */
  attempt: number;
  /** Bumped by every lease, so a token from an earlier lease can never match again. */
  lease_epoch: number;
  lease_token_hash: string | null;
  lease_expires_at: Date | null;
  worker_id: string | null;
}

export type JobEvent =
  | { type: 'lease'; worker_id: string; token_hash: string; now: Date; ttl_seconds: number }
  | {
      type: 'accept' | 'status' | 'log' | 'artifact' | 'complete' | 'fail';
      token_hash: string;
      /** The calling worker: the lease must be held by it, not only its token presented. */
      worker_id: string;
      now: Date;
    }
  | { type: 'heartbeat'; worker_id: string; now: Date; ttl_seconds: number }
  | { type: 'expire'; now: Date; maxAttempts: number }
  | { type: 'cancel' }
  | { type: 'start' }
  | { type: 'manual_complete' };

export interface JobTransition {
  job: JobLeaseState;
  /** The router receipt the caller writes for this change, if any. */
  receipt: RouterReceiptType | null;
}

export const TERMINAL_JOB_STATUSES: ReadonlySet<JobStatus> = new Set([
  'completed',
  'failed',
  'canceled',
]);

const RECEIPTS: Readonly<Record<JobEventType, RouterReceiptType | null>> = Object.freeze({
  lease: 'job_leased',
  accept: 'worker_job_accepted',
  status: null,
  log: null,
  artifact: 'artifact_reported',
  complete: 'worker_job_completed',
  fail: 'worker_job_failed',
  heartbeat: null,
  expire: 'lease_expired',
  cancel: null,
  start: null,
  manual_complete: null,
});

/** A job as POST /jobs creates it. */
export function newJobLeaseState(): JobLeaseState {
  return {
    status: 'queued',
    attempt: 1,
    lease_epoch: 0,
    lease_token_hash: null,
    lease_expires_at: null,
    worker_id: null,
  };
}

/** True when `tokenHash` names the job's current lease and that lease is still live at `now`. */
export function leaseValidAt(job: JobLeaseState, tokenHash: string, now: Date): boolean {
  return (
    (job.status === 'leased' || job.status === 'running') &&
    job.lease_token_hash !== null &&
    constantTimeEqual(job.lease_token_hash, tokenHash) &&
    job.lease_expires_at !== null &&
    now.getTime() < job.lease_expires_at.getTime()
  );
}

function addSeconds(at: Date, seconds: number): Date {
  if (!Number.isSafeInteger(seconds) || seconds <= 0)
    throw invalidInput('lease TTL must be a positive integer');
  return new Date(at.getTime() + seconds * 1000);
}

const released = { lease_token_hash: null, lease_expires_at: null } as const;

/** Applies the event's fence to the job or throws a 409; the job is never modified. */
function checkFence(job: JobLeaseState, event: JobEvent): void {
  const f = fenceFor(event.type);
  const now = 'now' in event ? event.now : null;
  if (f.token && 'token_hash' in event) {
    // Token first: a holder of a stale token learns nothing about the job's current state.
    // Terminal and requeued jobs have no token, so every earlier token lands here.
    if (
      job.lease_token_hash === null ||
      !constantTimeEqual(job.lease_token_hash, event.token_hash)
    ) {
      throw conflict('stale lease: the token does not hold this job');
    }
  }
  if (!f.statuses.includes(job.status)) {
    throw conflict(`job is ${job.status}; ${event.type} needs ${f.statuses.join(' or ')}`);
  }
  const expiresAt = job.lease_expires_at?.getTime() ?? null;
  if (f.unexpired && (now === null || expiresAt === null || now.getTime() >= expiresAt)) {
    throw conflict('stale lease: the lease has expired');
  }
  if (f.expired && (now === null || expiresAt === null || now.getTime() < expiresAt)) {
    throw conflict('the lease has not expired');
  }
  if (f.worker && (!('worker_id' in event) || job.worker_id !== event.worker_id)) {
    throw conflict('stale lease: the job is leased to another worker');
  }
  if (f.unleased && job.lease_token_hash !== null) {
    throw conflict('the job is held by a worker; only the worker can complete it');
  }
}

/**
 * The job/lease state machine of docs/design.md#router as a pure function. Each worker event must
 * present the current lease's token hash, before the lease expires, in a status that allows it;
 * otherwise it throws RunledgerError('conflict') and nothing changes.
 */
export function transition(job: JobLeaseState, event: JobEvent): JobTransition {
  checkFence(job, event);
  const receipt = RECEIPTS[event.type];
  const next = (changes: Partial<JobLeaseState>): JobTransition => ({
    job: { ...job, ...changes },
    receipt,
  });

  switch (event.type) {
    case 'lease':
      return next({
        status: 'leased',
        lease_epoch: job.lease_epoch + 1,
        lease_token_hash: event.token_hash,
        lease_expires_at: addSeconds(event.now, event.ttl_seconds),
        worker_id: event.worker_id,
      });
    case 'accept':
      return next({ status: 'running' });
    case 'status':
    case 'log':
    case 'artifact':
      return next({});
    case 'complete':
      return next({ status: 'completed', ...released });
    case 'fail':
      return next({ status: 'failed', ...released });
    case 'heartbeat':
      return next({ lease_expires_at: addSeconds(event.now, event.ttl_seconds) });
    case 'expire': {
      if (!Number.isSafeInteger(event.maxAttempts) || event.maxAttempts < 1) {
        throw invalidInput('maxAttempts must be a positive integer');
      }
      if (job.attempt >= event.maxAttempts) return next({ status: 'failed', ...released });
      return next({ status: 'queued', attempt: job.attempt + 1, worker_id: null, ...released });
    }
    case 'cancel':
      return next({ status: 'canceled', ...released });
    case 'start':
      return next({ status: 'running' });
    case 'manual_complete':
      return next({ status: 'completed' });
  }
}
