import { describe, expect, it } from 'vitest';
import { RunledgerError } from '../errors.js';
import type { JobStatus, RouterReceiptType } from '../schemas/enums.js';
import { LEASE_FENCES, fenceFor, type JobEventType } from './fence.js';
import {
  leaseValidAt,
  newJobLeaseState,
  transition,
  type JobEvent,
  type JobLeaseState,
} from './machine.js';

const T0 = new Date('2025-06-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const TOKEN = 'a'.repeat(64);

/** A job in each status, held (where a lease makes sense) by worker w1 with TOKEN until T0 + 600 s. */
function jobIn(status: JobStatus): JobLeaseState {
  const held = status === 'leased' || status === 'running';
  return {
    status,
    attempt: 1,
    lease_epoch: status === 'queued' ? 0 : 1,
    lease_token_hash: held ? TOKEN : null,
    lease_expires_at: held ? at(600) : null,
    worker_id: status === 'queued' ? null : 'w1',
  };
}

/** A well-formed event of each type, presenting the right token at T0 + 10 s. */
function eventOf(type: JobEventType): JobEvent {
  const now = at(10);
  switch (type) {
    case 'lease':
      return { type, worker_id: 'w2', token_hash: 'b'.repeat(64), now, ttl_seconds: 600 };
    case 'heartbeat':
      return { type, worker_id: 'w1', now, ttl_seconds: 600 };
    case 'expire':
      return { type, now, maxAttempts: 3 };
    case 'cancel':
    case 'start':
    case 'manual_complete':
      return { type };
    default:
      return { type, token_hash: TOKEN, worker_id: 'w1', now };
  }
}

/** docs/design.md#router written out independently: [status, event] → [next status, receipt]. */
const LEGAL: Record<string, [JobStatus, RouterReceiptType | null]> = {
  'queued lease': ['leased', 'job_leased'],
  'queued cancel': ['canceled', null],
  'queued start': ['running', null],
  'leased accept': ['running', 'worker_job_accepted'],
  'leased fail': ['failed', 'worker_job_failed'],
  'leased heartbeat': ['leased', null],
  'leased cancel': ['canceled', null],
  'running status': ['running', null],
  'running log': ['running', null],
  'running artifact': ['running', 'artifact_reported'],
  'running complete': ['completed', 'worker_job_completed'],
  'running fail': ['failed', 'worker_job_failed'],
  'running heartbeat': ['running', null],
  'running cancel': ['canceled', null],
};

const STATUSES: JobStatus[] = ['queued', 'leased', 'running', 'completed', 'failed', 'canceled'];
const EVENTS = Object.keys(LEASE_FENCES) as JobEventType[];

function conflictOf(fn: () => unknown): RunledgerError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RunledgerError);
    expect((e as RunledgerError).code).toBe('conflict');
    return e as RunledgerError;
  }
  throw new Error('expected a 409');
}

describe('job transitions', () => {
  it.each(STATUSES.flatMap((s) => EVENTS.map((e) => [s, e] as const)))(
    'a %s job on %s follows docs/design.md#router or is a 409 that changes nothing',
    (status, type) => {
      const job = Object.freeze(jobIn(status));
      const snapshot = structuredClone(job);
      const legal = LEGAL[`${status} ${type}`];
      if (legal === undefined) {
        conflictOf(() => transition(job, eventOf(type)));
        expect(job).toEqual(snapshot);
      } else {
        const { job: next, receipt } = transition(job, eventOf(type));
        expect([next.status, receipt]).toEqual(legal);
        expect(fenceFor(type).statuses).toContain(status);
      }
    },
  );

  it('leases with a fresh epoch, the token hash, the worker and now + TTL', () => {
    const { job } = transition(newJobLeaseState(), eventOf('lease'));
    expect(job).toEqual({
      status: 'leased',
      attempt: 1,
      lease_epoch: 1,
      lease_token_hash: 'b'.repeat(64),
      lease_expires_at: at(610),
      worker_id: 'w2',
    });
  });

  it('renews the lease on a heartbeat from its worker and refuses other workers', () => {
    const { job } = transition(jobIn('running'), {
      type: 'heartbeat',
      worker_id: 'w1',
      now: at(500),
      ttl_seconds: 600,
    });
    expect(job.lease_expires_at).toEqual(at(1100));
    conflictOf(() =>
      transition(jobIn('running'), {
        type: 'heartbeat',
        worker_id: 'w2',
        now: at(500),
        ttl_seconds: 600,
      }),
    );
  });

  it('rejects a stale lease token with 409 and a message that says so', () => {
    const e = conflictOf(() =>
      transition(jobIn('leased'), {
        type: 'accept',
        token_hash: 'c'.repeat(64),
        worker_id: 'w1',
        now: at(1),
      }),
    );
    expect(e.message).toMatch(/^stale lease/);
  });

  it('rejects the live token of another worker with 409: a lease is bound to its worker', () => {
    for (const type of ['accept', 'fail'] as const) {
      const e = conflictOf(() =>
        transition(jobIn('leased'), { type, token_hash: TOKEN, worker_id: 'w2', now: at(1) }),
      );
      expect(e.message).toMatch(/another worker/);
    }
    for (const type of ['status', 'log', 'artifact', 'complete'] as const) {
      conflictOf(() =>
        transition(jobIn('running'), { type, token_hash: TOKEN, worker_id: 'w2', now: at(1) }),
      );
    }
    expect(fenceFor('accept').worker).toBe(true);
  });

  it('treats the lease as expired from the instant lease_expires_at is reached', () => {
    transition(jobIn('running'), {
      type: 'status',
      token_hash: TOKEN,
      worker_id: 'w1',
      now: at(599.999),
    });
    const e = conflictOf(() =>
      transition(jobIn('running'), {
        type: 'status',
        token_hash: TOKEN,
        worker_id: 'w1',
        now: at(600),
      }),
    );
    expect(e.message).toMatch(/^stale lease: the lease has expired/);
    conflictOf(() =>
      transition(jobIn('running'), {
        type: 'heartbeat',
        worker_id: 'w1',
        now: at(600),
        ttl_seconds: 600,
      }),
    );
    conflictOf(() =>
      transition(jobIn('running'), { type: 'expire', now: at(599.999), maxAttempts: 3 }),
    );
    expect(
      transition(jobIn('running'), { type: 'expire', now: at(600), maxAttempts: 3 }).job.status,
    ).toBe('queued');
  });

  it('requeues an expired lease with attempt + 1 and writes lease_expired', () => {
    const result = transition(jobIn('leased'), { type: 'expire', now: at(700), maxAttempts: 3 });
    expect(result).toEqual({
      job: {
        status: 'queued',
        attempt: 2,
        lease_epoch: 1,
        lease_token_hash: null,
        lease_expires_at: null,
        worker_id: null,
      },
      receipt: 'lease_expired',
    });
  });

  it('fails a job whose last allowed attempt expires', () => {
    const job = { ...jobIn('running'), attempt: 3 };
    const result = transition(job, { type: 'expire', now: at(700), maxAttempts: 3 });
    expect(result.job.status).toBe('failed');
    expect(result.job.attempt).toBe(3);
    expect(result.receipt).toBe('lease_expired');
  });

  it('never accepts the token of a superseded lease', () => {
    const first = transition(newJobLeaseState(), {
      type: 'lease',
      worker_id: 'w1',
      token_hash: TOKEN,
      now: T0,
      ttl_seconds: 60,
    }).job;
    const requeued = transition(first, { type: 'expire', now: at(60), maxAttempts: 3 }).job;
    const second = transition(requeued, {
      type: 'lease',
      worker_id: 'w2',
      token_hash: 'd'.repeat(64),
      now: at(61),
      ttl_seconds: 60,
    }).job;
    expect(second.lease_epoch).toBe(2);
    conflictOf(() =>
      transition(second, { type: 'accept', token_hash: TOKEN, worker_id: 'w2', now: at(62) }),
    );
    expect(
      transition(second, {
        type: 'accept',
        token_hash: 'd'.repeat(64),
        worker_id: 'w2',
        now: at(62),
      }).job.status,
    ).toBe('running');
  });

  it('runs a job without a worker through start and manual_complete only while no lease holds it', () => {
    const running = transition(newJobLeaseState(), { type: 'start' }).job;
    expect(running).toMatchObject({ status: 'running', lease_token_hash: null });
    expect(transition(running, { type: 'manual_complete' }).job.status).toBe('completed');
    conflictOf(() => transition(jobIn('running'), { type: 'manual_complete' }));
    conflictOf(() => transition(running, { type: 'expire', now: at(10_000), maxAttempts: 3 }));
  });

  it('rejects a non-positive TTL and maxAttempts as invalid input', () => {
    const bad = (fn: () => unknown) =>
      expect(fn).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    bad(() =>
      transition(newJobLeaseState(), {
        ...(eventOf('lease') as Extract<JobEvent, { type: 'lease' }>),
        ttl_seconds: 0,
      }),
    );
    bad(() => transition(jobIn('running'), { type: 'expire', now: at(700), maxAttempts: 0 }));
  });

  it('describes the fence the storage layer must apply for every event', () => {
    expect(fenceFor('accept')).toMatchObject({
      statuses: ['leased'],
      token: true,
      unexpired: true,
    });
    expect(fenceFor('complete')).toMatchObject({
      statuses: ['running'],
      token: true,
      unexpired: true,
    });
    expect(fenceFor('expire')).toMatchObject({
      statuses: ['leased', 'running'],
      expired: true,
      token: false,
    });
    expect(fenceFor('heartbeat')).toMatchObject({ worker: true, unexpired: true, token: false });
    expect(Object.isFrozen(LEASE_FENCES)).toBe(true);
    expect(Object.isFrozen(fenceFor('lease').statuses)).toBe(true);
  });

  it('reports a live lease only for its current token before expiry', () => {
    expect(leaseValidAt(jobIn('running'), TOKEN, at(599))).toBe(true);
    expect(leaseValidAt(jobIn('running'), TOKEN, at(600))).toBe(false);
    expect(leaseValidAt(jobIn('running'), 'e'.repeat(64), at(1))).toBe(false);
    expect(leaseValidAt(jobIn('completed'), TOKEN, at(1))).toBe(false);
  });
});
