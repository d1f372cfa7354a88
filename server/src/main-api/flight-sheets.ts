import type { Runledger } from '@runledger/core';
import { FlightSheet, FlightSheetInput, FlightSheetList } from '@runledger/core/schemas';
import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';
import { PageQuery, pageOf } from '../http/paging.js';

const ListQuery = PageQuery.extend({ lane: z.string().min(1).max(64).optional() }).strict();
const SheetParams = z.object({ id_or_slug: z.string().min(1).max(200) }).strict();

export function flightSheetRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/flight-sheets',
      summary: 'Built-in flight sheets, then the organization’s own; `?lane=` filters',
      tag: 'flight-sheets',
      auth: 'any',
      query: ListQuery,
      status: 200,
      response: FlightSheetList,
      handler: async ({ actor, query }) => {
        const page = await runledger.flightSheets.list(actor, {
          ...pageOf(query),
          ...(query.lane !== undefined ? { lane: query.lane } : {}),
        });
        return { flight_sheets: page.items, next: page.next };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/flight-sheets/{id_or_slug}',
      summary: 'One flight sheet by id, or by slug (its newest version)',
      tag: 'flight-sheets',
      auth: 'any',
      params: SheetParams,
      status: 200,
      response: FlightSheet,
      errors: [404],
      handler: async ({ actor, params }) => runledger.flightSheets.get(actor, params.id_or_slug),
    }),
    defineRoute({
      method: 'post',
      path: '/flight-sheets',
      summary: 'Adds an immutable flight sheet version (owner only)',
      description:
        'Thresholds 0 ≤ fail ≤ pass ≤ 100, unique rule keys, every auto rule with a valid check of its category, ' +
        'a required_output_schema that compiles. A new version of an existing slug must be higher than its newest (409).',
      tag: 'flight-sheets',
      auth: 'owner',
      body: FlightSheetInput,
      status: 201,
      response: FlightSheet,
      errors: [409],
      handler: async ({ actor, body }) => runledger.flightSheets.create(actor, body),
    }),
  ];
}
