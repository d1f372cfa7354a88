import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunledgerError } from '../errors.js';
import { hashSecret } from '../secrets/index.js';
import {
  TERMINAL_TASK_STATUSES,
  claimValidAt,
  newTaskClaimState,
  transitionTask,
  type TaskClaimState,
  type TaskEvent,
} from './claims.js';

const TTL = 300;
const HELD = ['status', 'complete', 'fail'] as const;

type Command =
  | { k: 'claim'; runner: number }
  | { k: 'held'; type: (typeof HELD)[number]; pick: number }
  | { k: 'advance'; seconds: number }
  | { k: 'expire' };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.nat(2).map((runner) => ({ k: 'claim' as const, runner })) },
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant('held' as const),
      type: fc.constantFrom(...HELD),
      pick: fc.nat(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc
      .integer({ min: 1, max: 500 })
      .map((seconds) => ({ k: 'advance' as const, seconds })),
  },
  { weight: 3, arbitrary: fc.constant({ k: 'expire' as const }) },
);

describe('the tribunal claim machine under random runners and clocks', () => {
  it('lets only the newest live claim act, refuses without change, caps attempts and keeps terminal states final', () => {
    fc.assert(
      fc.property(
        fc.array(command, { maxLength: 80 }),
        fc.integer({ min: 1, max: 4 }),
        (commands, maxAttempts) => {
          let task: TaskClaimState = newTaskClaimState();
          let clock = Date.parse('2030-01-01T00:00:00.000Z');
          const issued: string[] = [];
          let newest: string | null = null;
          let newestEnded = false;
          for (const c of commands) {
            if (c.k === 'advance') {
              clock += c.seconds * 1000;
              continue;
            }
            const now = new Date(clock);
            let event: TaskEvent;
            if (c.k === 'claim') {
              event = {
                type: 'claim',
                token_hash: hashSecret(`token-${issued.length}`),
                runner_id: `r${c.runner}`,
                now,
                ttl_seconds: TTL,
              };
            } else if (c.k === 'held') {
              const token_hash =
                issued.length > 0 ? issued[c.pick % issued.length]! : hashSecret('never-issued');
              event =
                c.type === 'status'
                  ? { type: 'status', token_hash, now, ttl_seconds: TTL }
                  : { type: c.type, token_hash, now };
            } else {
              event = { type: 'expire', now, maxAttempts };
            }
            const before = structuredClone(task);
            Object.freeze(task);
            let after: TaskClaimState | null = null;
            try {
              after = transitionTask(task, event);
            } catch (e) {
              expect(e).toBeInstanceOf(RunledgerError);
              expect((e as RunledgerError).code).toBe('conflict');
            }
            // A refused event changes nothing; the machine never mutates its input.
            expect(task).toEqual(before);
            if (TERMINAL_TASK_STATUSES.has(before.status)) expect(after).toBeNull();
            if (after !== null) {
              if (event.type !== 'claim' && event.type !== 'expire') {
                // Only the newest token, while its claim is live, moves the task.
                expect(event.token_hash).toBe(newest);
                expect(newestEnded).toBe(false);
                expect(before.claim_expires_at!.getTime()).toBeGreaterThan(clock);
              }
              if (event.type === 'claim') {
                expect(before.status).toBe('queued');
                expect(after.claim_epoch).toBe(before.claim_epoch + 1);
                issued.push(event.token_hash);
                newest = event.token_hash;
                newestEnded = false;
              } else {
                expect(after.claim_epoch).toBe(before.claim_epoch);
              }
              if (event.type === 'status') {
                expect(after.claim_expires_at!.getTime()).toBe(clock + TTL * 1000);
              }
              if (event.type === 'expire') {
                if (before.attempt >= maxAttempts) expect(after.status).toBe('failed');
                else expect(after).toMatchObject({ status: 'queued', attempt: before.attempt + 1 });
                newestEnded = true;
              } else {
                expect(after.attempt).toBe(before.attempt);
              }
              if (TERMINAL_TASK_STATUSES.has(after.status)) newestEnded = true;
              task = after;
            }
            expect(task.attempt).toBeGreaterThanOrEqual(1);
            expect(task.attempt).toBeLessThanOrEqual(maxAttempts);
            // At most one issued token holds a live claim, and only the newest.
            const live = issued.filter((hash) => claimValidAt(task, hash, new Date(clock)));
            expect(live.length).toBeLessThanOrEqual(1);
            if (live.length === 1) expect(live[0]).toBe(newest);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
