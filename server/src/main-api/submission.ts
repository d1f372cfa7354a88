import type { Runledger } from '@runledger/core';
import { Submission, SubmissionIn } from '@runledger/core/schemas';
import { defineRoute, type Route } from '../http/route.js';
import { RunParams } from './params.js';

export function submissionRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/runs/{run_id}/submission',
      summary: 'Stores the run’s submission (any JSON object or array), replacing an earlier one',
      description:
        'Validity is judged by the audit’s schema rule, not here. Stored as canonical JSON (RFC 8785) with its sha256. ' +
        'A new submission after an audit returns the run to draft; after a decision it is a 409.',
      tag: 'runs',
      auth: 'any',
      params: RunParams,
      body: SubmissionIn,
      status: 201,
      response: Submission,
      errors: [404, 409],
      handler: async ({ actor, params, body }) => runledger.runs.submit(actor, params.run_id, body),
    }),
    defineRoute({
      method: 'get',
      path: '/runs/{run_id}/submission',
      summary: 'The run’s submission (404 when there is none yet)',
      tag: 'runs',
      auth: 'any',
      params: RunParams,
      status: 200,
      response: Submission,
      errors: [404],
      handler: async ({ actor, params }) => runledger.runs.getSubmission(actor, params.run_id),
    }),
  ];
}
