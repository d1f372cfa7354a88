export type { TileResource, TlogUseCases } from './api.js';
export { formatTilePath, parseTilePath, TILE_WIDTH, type TilePath } from './tile-path.js';
export { TILED_LOGS, tileBytes, type TiledLog } from './tiles.js';
export { tlogUseCases } from './tlog-use-cases.js';
