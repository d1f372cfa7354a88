import type { Runledger } from '@runledger/core';
import { Approval, ApprovalIn, Receipt } from '@runledger/core/schemas';
import { defineRoute, type Route } from '../http/route.js';
import { RunParams } from './params.js';

export function decisionRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/runs/{run_id}/approve',
      summary: 'Records the decision on a finalized run: approved, rejected or escalated',
      description:
        'A person decides: an API key gets 403. 409 before findings, or for a second decision on an approved or rejected run. ' +
        'An escalated run can be approved or rejected by an owner (403 for a member).',
      tag: 'decisions',
      auth: 'any',
      params: RunParams,
      body: ApprovalIn,
      status: 200,
      response: Approval,
      errors: [403, 404, 409],
      handler: async ({ actor, params, body }) =>
        runledger.runs.approve(actor, params.run_id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/runs/{run_id}/receipt',
      summary: 'Mints the run’s receipt: the next link of the organization’s chain',
      description:
        '201 on the first mint, 200 with the same receipt on a repeat. 409 unless the run is approved (nothing is minted).',
      tag: 'decisions',
      auth: 'any',
      params: RunParams,
      status: 201,
      alsoStatus: [200],
      response: Receipt,
      errors: [404, 409],
      handler: async ({ actor, params, setStatus }) => {
        const { receipt, created } = await runledger.runs.mintReceipt(actor, params.run_id);
        if (!created) setStatus(200);
        return receipt;
      },
    }),
  ];
}
