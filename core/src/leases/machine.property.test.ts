import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunledgerError } from '../errors.js';
import { hashSecret } from '../secrets/index.js';
import {
  TERMINAL_JOB_STATUSES,
  leaseValidAt,
  newJobLeaseState,
  transition,
  type JobEvent,
  type JobLeaseState,
} from './machine.js';

const TTL = 600;
const WORKERS = ['w0', 'w1', 'w2'] as const;
const TOKEN_EVENTS = ['accept', 'status', 'log', 'artifact', 'complete', 'fail'] as const;

type Command =
  | { k: 'lease'; w: number }
  | { k: 'token'; type: (typeof TOKEN_EVENTS)[number]; w: number; pick: number }
  | { k: 'heartbeat'; w: number }
  | { k: 'advance'; seconds: number }
  | { k: 'expire' }
  | { k: 'cancel' };

const worker = fc.integer({ min: 0, max: WORKERS.length - 1 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: worker.map((w) => ({ k: 'lease' as const, w })) },
  {
    weight: 8,
    arbitrary: fc.record({
      k: fc.constant('token' as const),
      type: fc.constantFrom(...TOKEN_EVENTS),
      w: worker,
      pick: fc.nat(),
    }),
  },
  { weight: 2, arbitrary: worker.map((w) => ({ k: 'heartbeat' as const, w })) },
  {
    weight: 3,
    arbitrary: fc
      .integer({ min: 1, max: 900 })
      .map((seconds) => ({ k: 'advance' as const, seconds })),
  },
  { weight: 3, arbitrary: fc.constant({ k: 'expire' as const }) },
  { weight: 1, arbitrary: fc.constant({ k: 'cancel' as const }) },
);

interface Issued {
  hash: string;
  worker: number;
}

describe('the lease machine under random workers and clocks', () => {
  it('never lets two leases, a stale token or an exhausted job through, and keeps terminal states final', () => {
    fc.assert(
      fc.property(
        fc.array(command, { maxLength: 80 }),
        fc.integer({ min: 1, max: 4 }),
        (commands, maxAttempts) => {
          let job: JobLeaseState = newJobLeaseState();
          let clock = Date.parse('2025-06-01T00:00:00.000Z');
          const issued: Issued[] = [];
          // The newest token, and whether something (expiry, completion, cancel) has ended its lease since.
          let newest: string | null = null;
          let newestEnded = false;

          for (const c of commands) {
            if (c.k === 'advance') {
              clock += c.seconds * 1000;
              continue;
            }
            const now = new Date(clock);
            let event: JobEvent;
            switch (c.k) {
              case 'lease':
                event = {
                  type: 'lease',
                  worker_id: WORKERS[c.w]!,
                  token_hash: hashSecret(`token-${issued.length}`),
                  now,
                  ttl_seconds: TTL,
                };
                break;
              case 'token': {
                const mine = issued.filter((t) => t.worker === c.w);
                const hash =
                  mine.length > 0 ? mine[c.pick % mine.length]!.hash : hashSecret('never-issued');
                event = { type: c.type, token_hash: hash, worker_id: WORKERS[c.w]!, now };
                break;
              }
              case 'heartbeat':
                event = { type: 'heartbeat', worker_id: WORKERS[c.w]!, now, ttl_seconds: TTL };
                break;
              case 'expire':
                event = { type: 'expire', now, maxAttempts };
                break;
              case 'cancel':
                event = { type: 'cancel' };
                break;
            }

            const before = structuredClone(job);
            Object.freeze(job);
            let after: JobLeaseState | null = null;
            try {
              after = transition(job, event).job;
            } catch (e) {
              expect(e).toBeInstanceOf(RunledgerError);
              expect((e as RunledgerError).code).toBe('conflict');
            }
            // A refused event changes nothing, and the machine never mutates its input.
            expect(job).toEqual(before);

            // (d) terminal states are absorbing: every event is refused.
            if (TERMINAL_JOB_STATUSES.has(before.status)) expect(after).toBeNull();

            if (after !== null) {
              // (b) only the newest token, while its lease is live, moves the job.
              if ('token_hash' in event && event.type !== 'lease') {
                expect(event.token_hash).toBe(newest);
                expect(newestEnded).toBe(false);
                expect(before.lease_expires_at!.getTime()).toBeGreaterThan(clock);
              }
              if (event.type === 'lease') {
                expect(after.lease_epoch).toBe(before.lease_epoch + 1);
                issued.push({ hash: event.token_hash, worker: c.k === 'lease' ? c.w : -1 });
                newest = event.token_hash;
                newestEnded = false;
              } else {
                expect(after.lease_epoch).toBe(before.lease_epoch);
              }
              // (c) an expiry moves to the next attempt, or to failed after the last one.
              if (event.type === 'expire') {
                if (before.attempt >= maxAttempts) expect(after.status).toBe('failed');
                else expect(after).toMatchObject({ status: 'queued', attempt: before.attempt + 1 });
              } else {
                expect(after.attempt).toBe(before.attempt);
              }
              if (event.type === 'expire' || TERMINAL_JOB_STATUSES.has(after.status))
                newestEnded = true;
              job = after;
            }

            expect(job.attempt).toBeGreaterThanOrEqual(1);
            expect(job.attempt).toBeLessThanOrEqual(maxAttempts);

            // (a) at most one issued token holds a live lease, and only the newest one.
            const live = issued.filter((t) => leaseValidAt(job, t.hash, new Date(clock)));
            expect(live.length).toBeLessThanOrEqual(1);
            if (live.length === 1) expect(live[0]!.hash).toBe(newest);
            // The same, asked of the machine itself: at most one token can still act on the job.
            const actors = issued.filter((t) => {
              try {
                transition(job, {
                  type: 'fail',
                  token_hash: t.hash,
                  worker_id: WORKERS[t.worker] ?? 'none',
                  now: new Date(clock),
                });
                return true;
              } catch {
                return false;
              }
            });
            expect(actors.length).toBeLessThanOrEqual(1);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
