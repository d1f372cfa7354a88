import type { Actor } from '../actor.js';
import { treeSize } from '../checkpoints/tree.js';
import type { Deps } from '../deps.js';
import { notFound } from '../errors.js';
import type { TileResource, TlogUseCases } from './api.js';
import { latestCheckpoint } from './served.js';
import { parseTilePath } from './tile-path.js';
import { TILED_LOGS, tileBytes, type TiledLog } from './tiles.js';

/** The log, when the actor's organization may read it; not_found otherwise (no existence leak). */
function readableLog(actor: Actor, orgId: string, log: string): TiledLog {
  if (actor.orgId !== orgId || !(TILED_LOGS as readonly string[]).includes(log)) {
    throw notFound('log');
  }
  return log as TiledLog;
}

export function tlogUseCases(deps: Deps): TlogUseCases {
  const { storage, clock, config, checkpointSigner } = deps;
  return {
    checkpoint: (actor, orgId, log) =>
      storage.read(async (tx) => {
        const name = readableLog(actor, orgId, log);
        const context = {
          signer: checkpointSigner,
          publicBaseUrl: config.publicBaseUrl,
          now: clock.now(),
        };
        return (await latestCheckpoint(tx, context, orgId, name)).checkpoint;
      }),

    tile: (actor, orgId, log, tilePath) =>
      storage.read(async (tx): Promise<TileResource> => {
        const name = readableLog(actor, orgId, log);
        const path = parseTilePath(tilePath);
        if (path === null) throw notFound('tile');
        const bytes = await tileBytes(tx, orgId, name, path, await treeSize(tx, orgId, name));
        if (bytes === null) throw notFound('tile');
        return { bytes, full: path.width === null };
      }),
  };
}
