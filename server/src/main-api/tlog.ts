import type { Runledger } from '@runledger/core';
import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';

const LogParams = z
  .object({ org_id: z.string().min(1).max(200), log: z.string().min(1).max(50) })
  .strict();
const TileParams = LogParams.extend({ tile_path: z.string().min(1).max(200) }).strict();

/** Full tiles never change; a partial tile of width W never changes either, but is soon replaced. */
const IMMUTABLE = 'private, max-age=31536000, immutable';
const PARTIAL = 'private, max-age=3600';

/** Each organization's `ledger` and `audit` logs as C2SP tlog-tiles (docs/witnesses.md). */
export function tlogRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/tlog/{org_id}/{log}/checkpoint',
      summary: 'The log’s checkpoint (C2SP tlog-tiles): the latest cosigned one, else signed now',
      description:
        'A C2SP signed note; with witnesses configured, the latest checkpoint they cosigned (docs/witnesses.md). The organization’s own credentials; 404 for another organization or an unknown log.',
      tag: 'checkpoints',
      auth: 'any',
      params: LogParams,
      status: 200,
      response: undefined,
      raw: { contentType: 'text/plain; charset=utf-8', description: 'A signed checkpoint note' },
      errors: [404],
      handler: async ({ actor, params, res }) => {
        const note = await runledger.tlog.checkpoint(actor, params.org_id, params.log);
        res.status(200);
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.setHeader('Cache-Control', 'private, max-age=5');
        res.end(note);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/tlog/{org_id}/{log}/tile/{tile_path}',
      restParam: 'tile_path',
      summary: 'A tile of Merkle hashes or an entry bundle (C2SP tlog-tiles)',
      description:
        '`tile_path` spans several segments: `<L>/<N>[.p/<W>]` (hashes) or `entries/<N>[.p/<W>]` (each leaf’s data, the 32-byte receipt hash, uint16-length-prefixed). Full tiles are immutable. 404 for a tile the tree does not have yet, a non-canonical path, another organization or an unknown log.',
      tag: 'checkpoints',
      auth: 'any',
      params: TileParams,
      status: 200,
      response: undefined,
      raw: { contentType: 'application/octet-stream', description: 'Tile bytes' },
      errors: [404],
      handler: async ({ actor, params, res }) => {
        const tile = await runledger.tlog.tile(actor, params.org_id, params.log, params.tile_path);
        res.status(200);
        res.setHeader('Content-Type', 'application/octet-stream');
        res.setHeader('Cache-Control', tile.full ? IMMUTABLE : PARTIAL);
        res.end(tile.bytes);
      },
    }),
  ];
}
