import type { Actor } from '../actor.js';

/** A tlog-tiles resource: its bytes, and whether they can never change (a full tile). */
export interface TileResource {
  bytes: Uint8Array;
  full: boolean;
}

/**
 * Each organization's logs as C2SP tlog-tiles (docs/witnesses.md): readable with the
 * organization's own credentials; another organization's logs, an unknown log or a tile the tree
 * does not have yet are not_found.
 */
export interface TlogUseCases {
  /** The log's checkpoint note: the latest one witnesses cosigned, else one signed now. */
  checkpoint(actor: Actor, orgId: string, log: string): Promise<string>;
  /** A tile or entry bundle, by its path below `tile/` (`0/x001/234.p/7`, `entries/000`). */
  tile(actor: Actor, orgId: string, log: string, tilePath: string): Promise<TileResource>;
}
