import type { Runledger } from '@runledger/core';
import {
  ComputeInventory,
  ComputeNode,
  ComputeQuote,
  NodeRegisterBody,
  QuoteBody,
} from '@runledger/core/schemas';
import { defineRoute, type Route } from '../http/route.js';

export function computeRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/compute/inventory',
      summary: 'Node classes with their server-side hourly rates, and the registered nodes',
      tag: 'compute',
      auth: 'none',
      status: 200,
      response: ComputeInventory,
      handler: async () => runledger.router.inventory(),
    }),
    defineRoute({
      method: 'post',
      path: '/compute/register-node',
      summary: 'Registers a compute node of a known class',
      tag: 'compute',
      auth: 'none',
      body: NodeRegisterBody,
      status: 201,
      response: ComputeNode,
      handler: async ({ body }) => runledger.router.registerNode(body),
    }),
    defineRoute({
      method: 'post',
      path: '/compute/quote',
      summary: 'Prices hours on a node class for an active member',
      description:
        'amount = hours × the class rate, half-up to cents; 0 < hours ≤ 8760 (a number or a plain decimal ' +
        'string). A caller-supplied `rate` or `hourly_rate` is accepted and ignored. Writes a `compute_quote` ' +
        'receipt with the amount. 403 for an inactive member.',
      tag: 'compute',
      auth: 'none',
      body: QuoteBody,
      status: 201,
      response: ComputeQuote,
      errors: [403, 404],
      handler: async ({ body }) => runledger.router.quote(body),
    }),
  ];
}
