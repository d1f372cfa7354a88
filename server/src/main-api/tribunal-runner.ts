import type { Runledger } from '@runledger/core';
import {
  RunnerClaimBody,
  RunnerCompleteBody,
  RunnerFailBody,
  RunnerStatusBody,
  RunnerTask,
  RunnerTaskState,
} from '@runledger/core/schemas';
import { z } from 'zod';
import { internalCredentialGuard } from '../http/credential.js';
import { defineRoute, type Route } from '../http/route.js';

export interface RunnerRouteDeps {
  runledger: Runledger;
  /** RUNNER_TOKEN; null turns the runner routes off (503). */
  runnerToken: string | null;
}

const TaskParams = z.object({ task_id: z.string().min(1).max(100) }).strict();

const CREDENTIAL =
  'Needs `X-Runner-Token` equal to RUNNER_TOKEN (compared in constant time): 503 while RUNNER_TOKEN is unset, ' +
  '401 when the header is missing or different.';
const STALE =
  'A stale, expired or superseded claim token, or a task no longer claimed: 409 and nothing changes.';

/** `/internal/runner/*`: external runners claim and finish tribunal grading tasks. */
export function runnerRoutes({ runledger, runnerToken }: RunnerRouteDeps): Route[] {
  const guard = internalCredentialGuard({
    header: 'X-Runner-Token',
    secret: runnerToken,
    setting: 'RUNNER_TOKEN',
  });
  const common = {
    tag: 'runner',
    auth: 'none',
    precondition: guard,
    credentialHeader: 'X-Runner-Token',
    status: 200,
    response: RunnerTaskState,
  } as const;
  return [
    defineRoute({
      method: 'post',
      path: '/internal/runner/claim',
      summary: 'Claims the oldest queued grading task (204 when none is queued)',
      description:
        `${CREDENTIAL} Expired claims are requeued first (or failed after TRIBUNAL_MAX_ATTEMPTS). The claim ` +
        'lives TRIBUNAL_CLAIM_TTL_SECONDS; each status report extends it. The claim_token is shown only here.',
      tag: 'runner',
      auth: 'none',
      precondition: guard,
      credentialHeader: 'X-Runner-Token',
      body: RunnerClaimBody,
      status: 200,
      response: RunnerTask,
      noContent: 'No task is queued',
      errors: [401, 503],
      handler: async ({ body }) => runledger.tribunal.claim(body),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/internal/runner/tasks/{task_id}/status',
      summary: 'Reports progress and extends the claim',
      description: `${CREDENTIAL} ${STALE}`,
      params: TaskParams,
      body: RunnerStatusBody,
      errors: [401, 404, 409, 503],
      handler: async ({ params, body }) => runledger.tribunal.reportStatus(params.task_id, body),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/internal/runner/tasks/{task_id}/complete',
      summary: 'Completes a task with one check per rule; the server computes the verdict',
      description:
        `${CREDENTIAL} ${STALE} The checks must match the sheet's rules (keys, label, category, kind, ` +
        'severity, tier; statuses pass, flag, skip or open): 400 otherwise.',
      params: TaskParams,
      body: RunnerCompleteBody,
      errors: [401, 404, 409, 503],
      handler: async ({ params, body }) => runledger.tribunal.complete(params.task_id, body),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/internal/runner/tasks/{task_id}/fail',
      summary: 'Fails a task; the verdict becomes failed with the error',
      description: `${CREDENTIAL} ${STALE}`,
      params: TaskParams,
      body: RunnerFailBody,
      errors: [401, 404, 409, 503],
      handler: async ({ params, body }) => runledger.tribunal.fail(params.task_id, body),
    }),
  ];
}
