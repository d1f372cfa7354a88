import type { Runledger } from '@runledger/core';
import {
  TribunalGradeBody,
  TribunalQueued,
  TribunalRegradeBody,
  TribunalVerdict,
} from '@runledger/core/schemas';
import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';

export interface TribunalRouteDeps {
  runledger: Runledger;
  /** Called after a task is enqueued (the in-process runner wakes up). */
  onEnqueue: () => void;
}

const VerdictParams = z.object({ verdict_id: z.string().min(1).max(100) }).strict();

/** `/v1/tribunal/*`: grading through the task queue, polled by verdict id (docs/tribunal.md). */
export function tribunalRoutes({ runledger, onEnqueue }: TribunalRouteDeps): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/tribunal/grade',
      summary: 'Queues a submission for grading against a flight sheet',
      description:
        '`flight_sheet` is a flight sheet id or slug visible to the organization (a slug pins its newest ' +
        'version), or an inline sheet validated like POST /flight-sheets. The audit runs in the background; ' +
        'poll GET /v1/tribunal/verdicts/{verdict_id}. Checklist checks stay open, so their verdict is at best `risk`.',
      tag: 'tribunal',
      auth: 'any',
      body: TribunalGradeBody,
      status: 202,
      response: TribunalQueued,
      errors: [404],
      handler: async ({ actor, body }) => {
        const queued = await runledger.tribunal.grade(actor, body);
        onEnqueue();
        return queued;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/tribunal/verdicts/{verdict_id}',
      summary: 'Polls a verdict: queued, grading, complete or failed',
      description:
        '`checks` and `verdict` are null until complete; `error` says why a failed grading failed; ' +
        '`history` holds earlier results moved aside by regrades, oldest first.',
      tag: 'tribunal',
      auth: 'any',
      params: VerdictParams,
      status: 200,
      response: TribunalVerdict,
      errors: [404],
      handler: async ({ actor, params }) => runledger.tribunal.get(actor, params.verdict_id),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/tribunal/regrade',
      summary: 'Grades a verdict again, keeping the earlier result in its history (owner only)',
      description:
        'Only a complete or failed verdict (409 while queued or grading). Members and API keys get 403.',
      tag: 'tribunal',
      auth: 'owner',
      body: TribunalRegradeBody,
      status: 202,
      response: TribunalQueued,
      errors: [404, 409],
      handler: async ({ actor, body }) => {
        const queued = await runledger.tribunal.regrade(actor, body);
        onEnqueue();
        return queued;
      },
    }),
  ];
}
