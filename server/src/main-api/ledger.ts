import type { Runledger } from '@runledger/core';
import { LedgerList, LedgerVerifyResult, ReceiptsRecent } from '@runledger/core/schemas';
import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';
import { streamNdjson } from '../http/streaming.js';
import { Limit } from '../http/paging.js';
import { SeqParam } from './params.js';

/**
 * Like every list, these page with `?after=<next>` (docs/http.md, Paging); `next` is an org_seq here,
 * so `after_seq` (ledger) and `before_seq` (recent, newest first) name the same value and stay accepted.
 */
const LedgerQuery = z
  .object({ after: SeqParam.optional(), after_seq: SeqParam.optional(), limit: Limit })
  .strict();
const RecentQuery = z
  .object({ after: SeqParam.optional(), before_seq: SeqParam.optional(), limit: Limit })
  .strict();

/** Drops undefined keys (exactOptionalPropertyTypes-friendly). */
const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };

export function ledgerRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/ledger',
      summary:
        'The organization’s chain in org_seq order, paged by `?after=` (the previous `next`; `after_seq` is the same)',
      tag: 'ledger',
      auth: 'any',
      query: LedgerQuery,
      status: 200,
      response: LedgerList,
      handler: async ({ actor, query: { after, after_seq, limit } }) =>
        runledger.ledger.list(actor, defined({ after_seq: after_seq ?? after, limit })),
    }),
    defineRoute({
      method: 'get',
      path: '/ledger/verify',
      summary: 'Re-verifies the whole chain: every hash, org_seq order and parent_hash link',
      description:
        'Streams the receipts from storage in chunks up to the head read at the start (constant memory). ' +
        '`ok` is false and each faulty receipt is named when anything was altered.',
      tag: 'ledger',
      auth: 'any',
      status: 200,
      response: LedgerVerifyResult,
      handler: async ({ actor }) => runledger.ledger.verify(actor),
    }),
    defineRoute({
      method: 'get',
      path: '/ledger/export',
      summary: 'The chain as NDJSON: a header line, then one line per receipt with its payload',
      description:
        'Format `runledger.ledger/v1`, verifiable offline with `runledger-verify FILE`. Streamed with backpressure.',
      tag: 'ledger',
      auth: 'any',
      status: 200,
      response: undefined,
      raw: { contentType: 'application/x-ndjson', description: 'One JSON document per line' },
      handler: async ({ actor, res }) =>
        streamNdjson(res, runledger.ledger.export(actor), 'ledger.ndjson'),
    }),
    defineRoute({
      method: 'get',
      path: '/receipts/recent',
      summary:
        'The organization’s receipts, newest first, paged by `?before_seq=` (the previous `next`)',
      tag: 'ledger',
      auth: 'any',
      query: RecentQuery,
      status: 200,
      response: ReceiptsRecent,
      handler: async ({ actor, query: { after, before_seq, limit } }) =>
        runledger.ledger.recent(actor, defined({ before_seq: before_seq ?? after, limit })),
    }),
  ];
}
