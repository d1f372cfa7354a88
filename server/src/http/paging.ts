import { MAX_PAGE_LIMIT } from '@runledger/core';
import { z } from 'zod';
import { queryInt } from '../http/query-int.js';

export const Limit = queryInt(1, MAX_PAGE_LIMIT).optional();

/** `?limit=&after=` on every list: limit 1..200 (default 50), after = the `next` of the previous page. */
export const PageQuery = z
  .object({
    limit: Limit,
    after: z.string().min(1).max(512).optional(),
  })
  .strict();

export const pageOf = (query: z.output<typeof PageQuery>) => ({
  ...(query.limit !== undefined ? { limit: query.limit } : {}),
  ...(query.after !== undefined ? { after: query.after } : {}),
});
