import { describe, expect, it } from 'vitest';
import { hashSecret } from '../secrets/index.js';
import { newTaskClaimState, transitionTask, type TaskClaimState } from './claims.js';

const T0 = new Date('2030-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const A = hashSecret('a');
const B = hashSecret('b');

function claimed(token: string, seconds = 0): TaskClaimState {
  return transitionTask(newTaskClaimState(), {
    type: 'claim',
    token_hash: token,
    runner_id: 'r',
    now: at(seconds),
    ttl_seconds: 300,
  });
}

describe('tribunal claims', () => {
  it('rejects a stale runner after its claim expired and another runner claimed the task', () => {
    const first = claimed(A);
    const requeued = transitionTask(first, { type: 'expire', now: at(300), maxAttempts: 3 });
    expect(requeued).toMatchObject({ status: 'queued', attempt: 2, claim_token_hash: null });
    const second = transitionTask(requeued, {
      type: 'claim',
      token_hash: B,
      runner_id: 'r2',
      now: at(301),
      ttl_seconds: 300,
    });
    expect(() => transitionTask(second, { type: 'complete', token_hash: A, now: at(302) })).toThrow(
      /stale claim/,
    );
    expect(transitionTask(second, { type: 'complete', token_hash: B, now: at(302) }).status).toBe(
      'completed',
    );
  });

  it('refuses a holder whose claim expired even before anyone swept it', () => {
    expect(() => transitionTask(claimed(A), { type: 'fail', token_hash: A, now: at(300) })).toThrow(
      /expired/,
    );
  });

  it('extends the claim on a status report and fails the task when the last attempt expires', () => {
    const extended = transitionTask(claimed(A), {
      type: 'status',
      token_hash: A,
      now: at(200),
      ttl_seconds: 300,
    });
    expect(extended.claim_expires_at).toEqual(at(500));
    expect(() =>
      transitionTask(extended, { type: 'expire', now: at(499), maxAttempts: 1 }),
    ).toThrow(/not expired/);
    expect(transitionTask(extended, { type: 'expire', now: at(500), maxAttempts: 1 }).status).toBe(
      'failed',
    );
  });
});
