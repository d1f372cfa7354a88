import { BUILTIN_FLIGHT_SHEETS, type Runledger } from '@runledger/core';
import type { RunnerTask } from '@runledger/core/schemas';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { startInProcessRunner } from './in-process-runner.js';

const sheet = BUILTIN_FLIGHT_SHEETS.find((s) => s.slug === 'agent-task-report')!;

function task(taskId: string): RunnerTask {
  return {
    task_id: taskId,
    verdict_id: `vrd_${taskId}`,
    claim_token: 'rlc_test',
    claim_expires_at: '2030-01-01T00:00:00.000Z',
    attempt: 1,
    flight_sheet: { ...sheet, id: sheet.id, sha256: sheet.sha256 },
    submission: {},
    evidence: [],
  };
}

/** Runs `fn` after `hops` microtask turns, so it lands at one exact point of a drain's promise chain. */
function afterMicrotasks(hops: number, fn: () => void): void {
  queueMicrotask(hops === 0 ? fn : () => afterMicrotasks(hops - 1, fn));
}

/** Every microtask has run: the fake tribunal below never leaves the microtask queue. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A tribunal whose queue is an array; its first empty claim enqueues a task and wakes the runner
 * `hops` microtask turns later, i.e. somewhere inside the end of that drain.
 */
function racingTribunal(hops: number, wake: () => void) {
  const queue: RunnerTask[] = [];
  const claimed: string[] = [];
  const completed: string[] = [];
  let raced = false;
  const tribunal = {
    async claim() {
      const next = queue.shift() ?? null;
      if (next) claimed.push(next.task_id);
      else if (!raced) {
        raced = true;
        afterMicrotasks(hops, () => {
          queue.push(task('tsk_late'));
          wake();
        });
      }
      return next;
    },
    async complete(taskId: string) {
      completed.push(taskId);
    },
    async fail(taskId: string) {
      throw new Error(`unexpected fail of ${taskId}`);
    },
  } as unknown as Runledger['tribunal'];
  return { tribunal, claimed, completed };
}

describe('startInProcessRunner', () => {
  it('grades a task whose wake arrives at any point while a drain is finishing, without waiting for the poll', async () => {
    // Each hop count puts the wake at a later point of the drain's end: inside drain, between its
    // last `again` check and the `.finally` that clears `draining`, or after it.
    for (let hops = 0; hops <= 12; hops++) {
      let runnerWake = () => {};
      const fake = racingTribunal(hops, () => runnerWake());
      const runner = startInProcessRunner(fake.tribunal, 3600, pino({ level: 'silent' }));
      runnerWake = runner.wake;
      await settle();
      expect({ hops, claimed: fake.claimed, completed: fake.completed }).toEqual({
        hops,
        claimed: ['tsk_late'],
        completed: ['tsk_late'],
      });
      await runner.stop();
    }
  });
});
