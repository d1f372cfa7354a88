import type { Runledger } from '@runledger/core';
import { Incident, IncidentIn, IncidentList } from '@runledger/core/schemas';
import { defineRoute, type Route } from '../http/route.js';
import { RunParams } from './params.js';

export function incidentRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/runs/{run_id}/incidents',
      summary: 'Files an incident against a run',
      description:
        'kind is rogue, dark, policy_violation or recurring_flag; single_flag is not a kind (400): a single ' +
        'flag is a run-level finding. recurring_flag needs a rule key flagged in at least two runs of the ' +
        'same project created before this one (409 otherwise); give rule_key to name it, or the most ' +
        'recurring key is taken, and either way it is stored as rule_key. API keys may file incidents.',
      tag: 'incidents',
      auth: 'any',
      params: RunParams,
      body: IncidentIn,
      status: 201,
      response: Incident,
      errors: [404, 409],
      handler: async ({ actor, params, body }) =>
        runledger.incidents.file(actor, params.run_id, body),
    }),
    defineRoute({
      method: 'get',
      path: '/runs/{run_id}/incidents',
      summary: 'Incidents of a run, oldest first',
      tag: 'incidents',
      auth: 'any',
      params: RunParams,
      status: 200,
      response: IncidentList,
      errors: [404],
      handler: async ({ actor, params }) => ({
        incidents: await runledger.incidents.list(actor, params.run_id),
      }),
    }),
  ];
}
