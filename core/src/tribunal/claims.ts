import { conflict, invalidInput } from '../errors.js';
import type { ClaimFence } from '../ports/tribunal-storage.js';
import type { TribunalTaskStatus } from '../schemas/tribunal.js';
import { constantTimeEqual } from '../secrets/index.js';

/**
 * The claim of a tribunal grading task, a small sibling of the router's lease machine
 * (core/src/leases). That machine does not fit: jobs have leased/running/canceled and an accept
 * step, their status report does not extend the lease (a worker heartbeat does), and expiry writes
 * router receipts. Here a claim is extended by the holder's own status report, and that is all.
 */
export interface TaskClaimState {
  status: TribunalTaskStatus;
  /** 1 for the first claim; an expired claim moves the task to the next attempt. */
  attempt: number;
  /** Bumped by every claim, so a token of an earlier claim can never match again. */
  claim_epoch: number;
  claim_token_hash: string | null;
  claim_expires_at: Date | null;
  runner_id: string | null;
}

export type TaskEvent =
  | { type: 'claim'; token_hash: string; runner_id: string | null; now: Date; ttl_seconds: number }
  | { type: 'status'; token_hash: string; now: Date; ttl_seconds: number }
  | { type: 'complete' | 'fail'; token_hash: string; now: Date }
  | { type: 'expire'; now: Date; maxAttempts: number };

export type TaskEventType = TaskEvent['type'];

const fence = (statuses: TribunalTaskStatus[], flags: Partial<ClaimFence> = {}): ClaimFence =>
  Object.freeze({
    statuses: Object.freeze(statuses),
    token: false,
    unexpired: false,
    expired: false,
    ...flags,
  });

const held = { token: true, unexpired: true };

export const CLAIM_FENCES: Readonly<Record<TaskEventType, ClaimFence>> = Object.freeze({
  claim: fence(['queued']),
  status: fence(['claimed'], held),
  complete: fence(['claimed'], held),
  fail: fence(['claimed'], held),
  expire: fence(['claimed'], { expired: true }),
});

export const TERMINAL_TASK_STATUSES: ReadonlySet<TribunalTaskStatus> = new Set([
  'completed',
  'failed',
]);

/** A task as grade and regrade enqueue it. */
export function newTaskClaimState(): TaskClaimState {
  return {
    status: 'queued',
    attempt: 1,
    claim_epoch: 0,
    claim_token_hash: null,
    claim_expires_at: null,
    runner_id: null,
  };
}

/** True when `tokenHash` names the task's current claim and that claim is live at `now`. */
export function claimValidAt(task: TaskClaimState, tokenHash: string, now: Date): boolean {
  return (
    task.status === 'claimed' &&
    task.claim_token_hash !== null &&
    constantTimeEqual(task.claim_token_hash, tokenHash) &&
    task.claim_expires_at !== null &&
    now.getTime() < task.claim_expires_at.getTime()
  );
}

function addSeconds(at: Date, seconds: number): Date {
  if (!Number.isSafeInteger(seconds) || seconds <= 0)
    throw invalidInput('claim TTL must be a positive integer');
  return new Date(at.getTime() + seconds * 1000);
}

function checkFence(task: TaskClaimState, event: TaskEvent): void {
  const f = CLAIM_FENCES[event.type];
  if (f.token && 'token_hash' in event) {
    // Token first: a stale holder learns nothing about what happened to the task since.
    if (
      task.claim_token_hash === null ||
      !constantTimeEqual(task.claim_token_hash, event.token_hash)
    ) {
      throw conflict('stale claim: the token does not hold this task');
    }
  }
  if (!f.statuses.includes(task.status)) {
    throw conflict(`task is ${task.status}; ${event.type} needs ${f.statuses.join(' or ')}`);
  }
  const expiresAt = task.claim_expires_at?.getTime() ?? null;
  if (f.unexpired && (expiresAt === null || event.now.getTime() >= expiresAt)) {
    throw conflict('stale claim: the claim has expired');
  }
  if (f.expired && (expiresAt === null || event.now.getTime() < expiresAt)) {
    throw conflict('the claim has not expired');
  }
}

const released = { claim_token_hash: null, claim_expires_at: null } as const;

/**
 * The claim machine as a pure function: returns the next state or throws RunledgerError('conflict')
 * and changes nothing. The input is never modified.
 */
export function transitionTask(task: TaskClaimState, event: TaskEvent): TaskClaimState {
  checkFence(task, event);
  switch (event.type) {
    case 'claim':
      return {
        ...task,
        status: 'claimed',
        claim_epoch: task.claim_epoch + 1,
        claim_token_hash: event.token_hash,
        claim_expires_at: addSeconds(event.now, event.ttl_seconds),
        runner_id: event.runner_id,
      };
    case 'status':
      return { ...task, claim_expires_at: addSeconds(event.now, event.ttl_seconds) };
    case 'complete':
      return { ...task, status: 'completed', ...released };
    case 'fail':
      return { ...task, status: 'failed', ...released };
    case 'expire': {
      if (!Number.isSafeInteger(event.maxAttempts) || event.maxAttempts < 1) {
        throw invalidInput('maxAttempts must be a positive integer');
      }
      if (task.attempt >= event.maxAttempts) return { ...task, status: 'failed', ...released };
      return {
        ...task,
        status: 'queued',
        attempt: task.attempt + 1,
        runner_id: null,
        ...released,
      };
    }
  }
}
