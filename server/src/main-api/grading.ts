import type { Runledger } from '@runledger/core';
import {
  AuditResponse,
  Check,
  CheckGradeIn,
  ChecksList,
  FlagsList,
  Verdict,
} from '@runledger/core/schemas';
import { defineRoute, type Route } from '../http/route.js';
import { RunCheckParams, RunParams } from './params.js';

export function gradingRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/runs/{run_id}/audit',
      summary: 'Audits the submission against the pinned flight sheet',
      description:
        'All-auto sheets finalize at once (`deterministic: true`, verdict included, run finalized). ' +
        'Otherwise `needs_grading: true` and the run is audited with open checks. 409 without a submission or after a decision.',
      tag: 'grading',
      auth: 'any',
      params: RunParams,
      status: 200,
      response: AuditResponse,
      errors: [404, 409],
      handler: async ({ actor, params }) => runledger.runs.audit(actor, params.run_id),
    }),
    defineRoute({
      method: 'patch',
      path: '/runs/{run_id}/checks/{check_id}',
      summary: 'Grades an open check as pass or flag',
      description: 'Only open checks of an audited run (409 otherwise).',
      tag: 'grading',
      auth: 'any',
      params: RunCheckParams,
      body: CheckGradeIn,
      status: 200,
      response: Check,
      errors: [404, 409],
      handler: async ({ actor, params, body }) =>
        runledger.runs.gradeCheck(actor, params.run_id, params.check_id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/runs/{run_id}/findings',
      summary: 'Finalizes the verdict once no check is open',
      description:
        '409 while any check is open or before the audit; repeat calls return the same verdict.',
      tag: 'grading',
      auth: 'any',
      params: RunParams,
      status: 200,
      response: Verdict,
      errors: [404, 409],
      handler: async ({ actor, params }) => runledger.runs.findings(actor, params.run_id),
    }),
    ...gradeReadRoutes({ runledger }),
  ];
}

/** What an audit left: a run's checks, flags and verdict. */
function gradeReadRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/runs/{run_id}/checks',
      summary: 'The run’s checks (empty before the audit)',
      tag: 'grading',
      auth: 'any',
      params: RunParams,
      status: 200,
      response: ChecksList,
      errors: [404],
      handler: async ({ actor, params }) => runledger.runs.checks(actor, params.run_id),
    }),
    defineRoute({
      method: 'get',
      path: '/runs/{run_id}/flags',
      summary: 'Only the flagged checks: key, severity, detail',
      tag: 'grading',
      auth: 'any',
      params: RunParams,
      status: 200,
      response: FlagsList,
      errors: [404],
      handler: async ({ actor, params }) => runledger.runs.flags(actor, params.run_id),
    }),
    defineRoute({
      method: 'get',
      path: '/runs/{run_id}/verdict',
      summary: 'The final verdict (404 until the findings are final)',
      tag: 'grading',
      auth: 'any',
      params: RunParams,
      status: 200,
      response: Verdict,
      errors: [404],
      handler: async ({ actor, params }) => runledger.runs.verdict(actor, params.run_id),
    }),
  ];
}
