/**
 * C2SP tlog-tiles resource paths below `<prefix>/tile/`: `<L>/<N>[.p/<W>]` for a tile of Merkle
 * hashes and `entries/<N>[.p/<W>]` for an entry bundle. `<N>` is written in 3-digit path elements,
 * all but the last prefixed `x` (1234067 → `x001/x234/067`); `<L>` is 0 to 63 and `<W>` 1 to 255,
 * both without leading zeros. Only the canonical spelling of a tile is accepted.
 */
export type TilePath =
  | { kind: 'hashes'; level: number; index: number; width: number | null }
  | { kind: 'entries'; index: number; width: number | null };

/** Hashes per full tile (and entries per full bundle). */
export const TILE_WIDTH = 256;

const NUMBER = /^(0|[1-9][0-9]*)$/;

/** `<N>` as path elements. */
export function formatTileIndex(index: number): string {
  const digits = String(index);
  const padded = digits.padStart(Math.ceil(digits.length / 3) * 3, '0');
  const groups = padded.match(/.{3}/g) ?? ['000'];
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

export function formatTilePath(path: TilePath): string {
  const head = path.kind === 'entries' ? 'entries' : String(path.level);
  const tail = path.width === null ? '' : `.p/${path.width}`;
  return `${head}/${formatTileIndex(path.index)}${tail}`;
}

/** The tile a path names, or null when it is not a canonical tile path. */
export function parseTilePath(text: string): TilePath | null {
  const parts = text.split('/');
  const head = parts.shift();
  let width: number | null = null;
  if (parts.length >= 2 && parts.at(-2)!.endsWith('.p')) {
    const w = parts.pop()!;
    if (!NUMBER.test(w) || Number(w) < 1 || Number(w) >= TILE_WIDTH) return null;
    width = Number(w);
    parts[parts.length - 1] = parts.at(-1)!.slice(0, -'.p'.length);
  }
  if (parts.length === 0 || parts.length > 6) return null;
  const last = parts.length - 1;
  if (!parts.every((p, i) => (i < last ? /^x[0-9]{3}$/ : /^[0-9]{3}$/).test(p))) return null;
  const index = Number(parts.map((p) => p.replace('x', '')).join(''));
  if (!Number.isSafeInteger(index)) return null;
  let path: TilePath;
  if (head === 'entries') path = { kind: 'entries', index, width };
  else if (head !== undefined && NUMBER.test(head) && Number(head) <= 63)
    path = { kind: 'hashes', level: Number(head), index, width };
  else return null;
  return formatTilePath(path) === text ? path : null;
}
