import type { Runledger } from '@runledger/core';
import { AuditEventType, AuditList, SignedCheckpoint } from '@runledger/core/schemas';
import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';
import { streamNdjson } from '../http/streaming.js';
import { Limit } from '../http/paging.js';
import { SeqParam } from './params.js';

/** Pages like the ledger: `next` is an org_seq, passed back as `after` or `after_seq`. */
const AuditQuery = z
  .object({
    after: SeqParam.optional(),
    after_seq: SeqParam.optional(),
    limit: Limit,
    type: AuditEventType.optional(),
  })
  .strict();

export function auditRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/org/audit',
      summary:
        'The organization’s audit receipts in org_seq order, paged by `?after_seq=` and filtered by `?type=` (owner only)',
      description:
        'One receipt per sensitive action (docs/audit.md lists every event type and its fields); ' +
        'the payload is the hashed canonical JSON. Failed sign-ins appear aggregated per window.',
      tag: 'audit',
      auth: 'owner',
      query: AuditQuery,
      status: 200,
      response: AuditList,
      handler: async ({ actor, query: { after, after_seq, limit, type } }) => {
        const seq = after_seq ?? after;
        return runledger.audit.list(actor, {
          ...(seq === undefined ? {} : { after_seq: seq }),
          ...(limit === undefined ? {} : { limit }),
          ...(type === undefined ? {} : { type }),
        });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/org/audit/export',
      summary: 'The audit chain as NDJSON in the ledger export format (owner only)',
      description:
        'Format `runledger.ledger/v1` with `"log":"audit"`, `receipt_prefix` `audit` and the audit tree’s signed `checkpoint` in the header; ' +
        '`runledger-verify FILE` checks it exactly as a ledger export. Streamed with backpressure.',
      tag: 'audit',
      auth: 'owner',
      status: 200,
      response: undefined,
      raw: { contentType: 'application/x-ndjson', description: 'One JSON document per line' },
      handler: async ({ actor, res }) =>
        streamNdjson(res, runledger.audit.export(actor), 'audit.ndjson'),
    }),
    defineRoute({
      method: 'get',
      path: '/org/audit/checkpoint',
      summary: 'The signed checkpoint of the organization’s audit tree (owner only)',
      description:
        'A C2SP signed note over the audit Merkle tree (origin `<host>/orgs/<org_id>/audit`, size, ' +
        'root, `time` line), signed with the key of `/.well-known/runledger-keys.json`.',
      tag: 'audit',
      auth: 'owner',
      status: 200,
      response: SignedCheckpoint,
      handler: async ({ actor }) => runledger.audit.checkpoint(actor),
    }),
  ];
}
