import { RunledgerError, gradeTaskResult, type Runledger } from '@runledger/core';
import type { RunnerTask } from '@runledger/core/schemas';
import type { Logger } from 'pino';

export interface InProcessRunner {
  /** Looks for queued tasks now (called after every enqueue); a no-op once stopped. */
  wake(): void;
  /** Clears the poll interval and waits for the task in hand to finish. */
  stop(): Promise<void>;
}

export const IN_PROCESS_RUNNER_ID = 'in-process';

/**
 * Grades a claimed task with core and completes it through the same fenced use cases an external
 * runner calls over HTTP; a grading that throws fails the task with the reason.
 */
export async function gradeTask(
  tribunal: Runledger['tribunal'],
  task: RunnerTask,
  logger: Logger,
): Promise<void> {
  const result = gradeTaskResult(task);
  if (result.kind === 'complete') {
    await tribunal.complete(task.task_id, { claim_token: task.claim_token, checks: result.checks });
    return;
  }
  logger.error({ task_id: task.task_id, error: result.error }, 'tribunal grading failed');
  await tribunal.fail(task.task_id, { claim_token: task.claim_token, error: result.error });
}

/**
 * The default runner (TRIBUNAL_RUNNER=in-process): drains the queue whenever woken and every
 * `pollSeconds`. Drains never overlap; a wake during a drain makes it look once more.
 */
export function startInProcessRunner(
  tribunal: Runledger['tribunal'],
  pollSeconds: number,
  logger: Logger,
): InProcessRunner {
  let stopped = false;
  let again = false;
  let draining: Promise<void> | null = null;

  async function drain(): Promise<void> {
    do {
      again = false;
      for (;;) {
        if (stopped) return;
        const task = await tribunal.claim({ runner_id: IN_PROCESS_RUNNER_ID });
        if (task === null) break;
        try {
          await gradeTask(tribunal, task, logger);
        } catch (error) {
          // A claim lost meanwhile (409) is someone else's task now; anything else is logged.
          if (!(error instanceof RunledgerError && error.code === 'conflict')) throw error;
          logger.warn({ task_id: task.task_id }, 'tribunal claim lost before completion');
        }
      }
    } while (again && !stopped);
  }

  const wake = () => {
    if (stopped) return;
    if (draining) {
      again = true;
      return;
    }
    draining = drain()
      .catch((error: unknown) => logger.error({ err: error }, 'tribunal runner failed'))
      .finally(() => {
        draining = null;
        // A wake after drain's last `again` check, while `draining` was still set, only raised the
        // flag; without this look its task would wait for the slow poll.
        if (again) wake();
      });
  };

  const timer = setInterval(wake, pollSeconds * 1000);
  wake();

  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await draining;
    },
  };
}
