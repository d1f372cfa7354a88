import type { Runledger } from '@runledger/core';
import { Run, RunComposite, RunCreateBody, RunList, RunState } from '@runledger/core/schemas';
import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';
import { PageQuery, pageOf } from '../http/paging.js';
import { RunParams } from './params.js';

const ListQuery = PageQuery.extend({
  project_id: z.string().min(1).max(200).optional(),
  state: RunState.optional(),
  flight_sheet_slug: z.string().min(1).max(64).optional(),
}).strict();

export function runRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/runs',
      summary: 'Creates a run in state draft, pinned to one flight sheet version',
      description: '`flight_sheet_id` takes an id or a slug (a slug pins its newest version).',
      tag: 'runs',
      auth: 'any',
      body: RunCreateBody,
      status: 201,
      response: Run,
      errors: [404],
      handler: async ({ actor, body }) => runledger.runs.create(actor, body),
    }),
    defineRoute({
      method: 'get',
      path: '/runs',
      summary:
        'Runs of the organization in creation order, paged; filter by project_id, state and flight_sheet_slug (every version of the sheet)',
      tag: 'runs',
      auth: 'any',
      query: ListQuery,
      status: 200,
      response: RunList,
      handler: async ({ actor, query }) => {
        const page = await runledger.runs.list(actor, {
          ...pageOf(query),
          ...(query.project_id !== undefined ? { project_id: query.project_id } : {}),
          ...(query.state !== undefined ? { state: query.state } : {}),
          ...(query.flight_sheet_slug !== undefined
            ? { flight_sheet_slug: query.flight_sheet_slug }
            : {}),
        });
        return { runs: page.items, next: page.next };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/runs/{run_id}',
      summary: 'Everything about one run',
      description:
        'run, flight_sheet, agent_profile, evidence, submission, checks, verdict, approval, receipt, incidents, ownership; ' +
        'parts that do not exist yet are null (or empty lists).',
      tag: 'runs',
      auth: 'any',
      params: RunParams,
      status: 200,
      response: RunComposite,
      errors: [404],
      handler: async ({ actor, params }) => runledger.runs.get(actor, params.run_id),
    }),
  ];
}
