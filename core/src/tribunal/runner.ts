import { RunledgerError, conflict, notFound } from '../errors.js';
import type { Repositories } from '../ports/storage.js';
import type { TribunalTaskRecord, TribunalVerdictRecord } from '../ports/tribunal-storage.js';
import { hashSecret, newSecret } from '../secrets/secret.js';
import type { RunnerTask, RunnerTaskState } from '../schemas/tribunal.js';
import type { Deps } from '../deps.js';
import { acceptRunnerChecks } from './checks.js';
import { transitionTask, type TaskEvent } from './claims.js';
import { applyTaskEvent } from './task-events.js';
import type { TribunalUseCases } from './api.js';
import { tribunalVerdict } from './verdict.js';
import { emitVerdictCompleted } from '../webhooks/emit.js';
import { claimStateOf, evidenceOf, pinnedSheetOf, runnerSheetOf, toTaskState } from './views.js';

type RunnerUseCases = Pick<TribunalUseCases, 'claim' | 'reportStatus' | 'complete' | 'fail'>;

/** Plaintext tag of a claim token, so a leaked one is easy to recognise. */
export const CLAIM_TOKEN_PREFIX = 'rlc_';
/** Queued candidates tried per claim, and expired claims handled per claim call. */
const CLAIM_CANDIDATES = 5;
const EXPIRE_BATCH = 50;

async function verdictOf(
  tx: Repositories,
  task: TribunalTaskRecord,
): Promise<TribunalVerdictRecord> {
  const verdict = await tx.tribunalVerdicts.byId(task.verdict_id);
  if (!verdict) throw new Error(`task ${task.task_id} has no verdict ${task.verdict_id}`);
  return verdict;
}

/** Sets the verdict's status (and result) when its task moves; it must still be in `expected`. */
async function moveVerdict(
  tx: Repositories,
  verdict: TribunalVerdictRecord,
  expected: TribunalVerdictRecord['status'],
  change: Partial<
    Pick<TribunalVerdictRecord, 'status' | 'checks' | 'verdict' | 'error' | 'graded_at'>
  >,
  at: string,
): Promise<void> {
  const ok = await tx.tribunalVerdicts.update(verdict.verdict_id, expected, {
    status: verdict.status,
    checks: verdict.checks,
    verdict: verdict.verdict,
    error: verdict.error,
    graded_at: verdict.graded_at,
    history: verdict.history,
    ...change,
    updated_at: at,
  });
  if (!ok) throw conflict('the verdict changed meanwhile');
  await emitVerdictCompleted(tx, verdict, change.status, at);
}

export function runnerUseCases(deps: Deps): RunnerUseCases {
  const { storage, clock, random, config } = deps;
  const ttl = config.tribunalClaimTtlSeconds;
  const maxAttempts = config.tribunalMaxAttempts;

  return {
    async claim(input) {
      const now = clock.now();
      const at = now.toISOString();
      const token = `${CLAIM_TOKEN_PREFIX}${newSecret(random)}`;
      return storage.write(async (tx) => {
        await expireClaims(tx, now, maxAttempts);
        for (const candidate of await tx.tribunalTasks.oldestQueued(CLAIM_CANDIDATES)) {
          let task: TribunalTaskRecord;
          try {
            task = await applyTaskEvent(tx, candidate, {
              type: 'claim',
              token_hash: hashSecret(token),
              runner_id: input.runner_id ?? null,
              now,
              ttl_seconds: ttl,
            });
          } catch (error) {
            // Taken meanwhile: try the next oldest.
            if (error instanceof RunledgerError && error.code === 'conflict') continue;
            throw error;
          }
          const verdict = await verdictOf(tx, task);
          await moveVerdict(tx, verdict, 'queued', { status: 'grading' }, at);
          return toRunnerTask(task, verdict, token);
        }
        return null;
      });
    },

    reportStatus(taskId, input) {
      return held(deps, taskId, 'status', input.claim_token, async (_tx, task) =>
        input.message === undefined ? task.message : input.message,
      );
    },

    complete(taskId, input) {
      return held(deps, taskId, 'complete', input.claim_token, async (tx, task, at) => {
        const verdict = await verdictOf(tx, task);
        const sheet = pinnedSheetOf(verdict);
        const checks = acceptRunnerChecks(sheet, input.checks);
        await moveVerdict(
          tx,
          verdict,
          'grading',
          {
            status: 'complete',
            checks,
            verdict: tribunalVerdict(checks, sheet),
            error: null,
            graded_at: at,
          },
          at,
        );
        return task.message;
      });
    },

    fail(taskId, input) {
      return held(deps, taskId, 'fail', input.claim_token, async (tx, task, at) => {
        const verdict = await verdictOf(tx, task);
        await moveVerdict(
          tx,
          verdict,
          'grading',
          { status: 'failed', error: input.error, graded_at: at },
          at,
        );
        return task.message;
      });
    },
  };
}

/** Every claim call first requeues (or, on the last attempt, fails) the tasks whose claim expired. */
async function expireClaims(tx: Repositories, now: Date, maxAttempts: number): Promise<void> {
  const at = now.toISOString();
  for (const task of await tx.tribunalTasks.expiredClaims(at, EXPIRE_BATCH)) {
    const next = await applyTaskEvent(tx, task, { type: 'expire', now, maxAttempts });
    const verdict = await verdictOf(tx, task);
    if (next.status === 'failed') {
      await moveVerdict(
        tx,
        verdict,
        'grading',
        {
          status: 'failed',
          error: `the grading claim expired on attempt ${task.attempt} of ${maxAttempts}`,
          graded_at: at,
        },
        at,
      );
    } else {
      await moveVerdict(tx, verdict, 'grading', { status: 'queued' }, at);
    }
  }
}

/**
 * A runner call on a held claim: the machine refuses a stale, expired or superseded token first
 * (409 before any 400 about the body), then `finish` does the call's work, then the fenced UPDATE.
 */
function held(
  deps: Deps,
  taskId: string,
  type: 'status' | 'complete' | 'fail',
  claimToken: string,
  finish: (tx: Repositories, task: TribunalTaskRecord, at: string) => Promise<string | null>,
): Promise<RunnerTaskState> {
  const { storage, clock, config } = deps;
  const ttl = config.tribunalClaimTtlSeconds;
  const now = clock.now();
  const at = now.toISOString();
  return storage.write(async (tx) => {
    const task = await tx.tribunalTasks.byId(taskId);
    if (!task) throw notFound('task');
    const token_hash = hashSecret(claimToken);
    const event: TaskEvent =
      type === 'status' ? { type, token_hash, now, ttl_seconds: ttl } : { type, token_hash, now };
    transitionTask(claimStateOf(task), event);
    const message = await finish(tx, task, at);
    return toTaskState(await applyTaskEvent(tx, task, event, message));
  });
}

function toRunnerTask(
  task: TribunalTaskRecord,
  verdict: TribunalVerdictRecord,
  token: string,
): RunnerTask {
  return {
    task_id: task.task_id,
    verdict_id: task.verdict_id,
    claim_token: token,
    claim_expires_at: task.claim_expires_at!,
    attempt: task.attempt,
    flight_sheet: runnerSheetOf(verdict),
    submission: JSON.parse(verdict.submission_text) as RunnerTask['submission'],
    evidence: evidenceOf(verdict),
  };
}
