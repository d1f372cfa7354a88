import { setTimeout as sleep } from 'node:timers/promises';
import { gradeTaskResult } from '@runledger/core';
import { RunnerTask } from '@runledger/core/schemas';

export interface ExternalRunnerOptions {
  /** The main API, e.g. http://localhost:8080. */
  baseUrl: string;
  /** RUNNER_TOKEN of that server. */
  runnerToken: string;
  /** Recorded with each claim; defaults to `external`. */
  runnerId?: string;
  /** Grade what is queued now and return once the queue is empty, instead of polling forever. */
  once?: boolean;
  /** Stops the loop (after the task in hand). */
  signal?: AbortSignal;
  /** Wait between empty polls, and after a network error, when not `once`; default 5. */
  pollSeconds?: number;
}

export interface ExternalRunnerReport {
  completed: number;
  failed: number;
  /** Tasks whose claim was lost (409) before they could be finished. */
  lost: number;
}

export class RunnerHttpError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`runner request failed with ${status}: ${detail}`);
    this.name = 'RunnerHttpError';
  }
}

/**
 * The external tribunal runner (TRIBUNAL_RUNNER=external on the server): claim → grade with core →
 * complete, or fail when grading throws. A 401 or 503 (wrong or unset RUNNER_TOKEN) ends the loop
 * with a RunnerHttpError; a network error is retried after `pollSeconds` unless `once`.
 */
export async function runExternalRunner(
  options: ExternalRunnerOptions,
): Promise<ExternalRunnerReport> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const pollMs = (options.pollSeconds ?? 5) * 1000;
  const report: ExternalRunnerReport = { completed: 0, failed: 0, lost: 0 };

  async function post(path: string, body: unknown): Promise<Response> {
    return fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-runner-token': options.runnerToken },
      body: JSON.stringify(body),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  async function fail(response: Response): Promise<never> {
    const text = await response.text();
    let detail = text;
    try {
      detail = (JSON.parse(text) as { detail?: string }).detail ?? text;
    } catch {
      // not JSON: keep the text
    }
    throw new RunnerHttpError(response.status, detail);
  }

  /** Sends complete or fail; false when the claim was lost (409). */
  async function finish(task: RunnerTask, path: 'complete' | 'fail', body: object) {
    const response = await post(
      `/internal/runner/tasks/${encodeURIComponent(task.task_id)}/${path}`,
      {
        claim_token: task.claim_token,
        ...body,
      },
    );
    if (response.status === 409) return false;
    if (!response.ok) await fail(response);
    return true;
  }

  async function handle(task: RunnerTask): Promise<void> {
    const result = gradeTaskResult(task);
    const finished =
      result.kind === 'complete'
        ? await finish(task, 'complete', { checks: result.checks })
        : await finish(task, 'fail', { error: result.error });
    if (!finished) report.lost += 1;
    else if (result.kind === 'complete') report.completed += 1;
    else report.failed += 1;
  }

  const wait = async () => {
    await sleep(pollMs, undefined, options.signal ? { signal: options.signal } : {}).catch(
      () => undefined,
    );
  };

  while (!options.signal?.aborted) {
    let response: Response;
    try {
      response = await post('/internal/runner/claim', {
        runner_id: options.runnerId ?? 'external',
      });
    } catch (error) {
      if (options.once || options.signal?.aborted) throw error;
      await wait();
      continue;
    }
    if (response.status === 204) {
      if (options.once) break;
      await wait();
      continue;
    }
    if (response.status !== 200) await fail(response);
    await handle(RunnerTask.parse(await response.json()));
  }
  return report;
}
