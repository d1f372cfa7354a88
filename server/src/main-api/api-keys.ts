import type { Runledger } from '@runledger/core';
import { ApiKeyCreateBody, ApiKeyCreated, ApiKeyList } from '@runledger/core/schemas';
import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';
import { PageQuery, pageOf } from '../http/paging.js';

const KeyParams = z.object({ key_id: z.string().min(1).max(200) }).strict();

export function apiKeyRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/org/api-keys',
      summary: 'API keys of the organization, paged, without secrets (owner only)',
      tag: 'api-keys',
      auth: 'owner',
      query: PageQuery,
      status: 200,
      response: ApiKeyList,
      handler: async ({ actor, query }) => {
        const page = await runledger.apiKeys.list(actor, pageOf(query));
        return { keys: page.items, next: page.next };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/org/api-keys',
      summary: 'Creates an API key; the plaintext `key` is returned only here, once (owner only)',
      tag: 'api-keys',
      auth: 'owner',
      body: ApiKeyCreateBody,
      status: 201,
      response: ApiKeyCreated,
      handler: async ({ actor, body }) => runledger.apiKeys.create(actor, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/org/api-keys/{key_id}',
      summary: 'Revokes an API key; its next use answers 401 (owner only)',
      tag: 'api-keys',
      auth: 'owner',
      params: KeyParams,
      status: 204,
      response: undefined,
      errors: [404],
      handler: async ({ actor, params }) => runledger.apiKeys.revoke(actor, params.key_id),
    }),
  ];
}
