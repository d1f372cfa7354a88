import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTileIndex, formatTilePath, parseTilePath, type TilePath } from './tile-path.js';
import { tileExists } from './tiles.js';

describe('C2SP tlog-tiles paths', () => {
  it('encodes the index of the specification example as x001/x234/067', () => {
    expect(formatTileIndex(1234067)).toBe('x001/x234/067');
    expect(formatTileIndex(0)).toBe('000');
    expect(formatTileIndex(256)).toBe('256');
    expect(formatTileIndex(1000)).toBe('x001/000');
  });

  it('parses what it formats, and only that', () => {
    const pathArb: fc.Arbitrary<TilePath> = fc.oneof(
      fc.record({
        kind: fc.constant('hashes' as const),
        level: fc.integer({ min: 0, max: 63 }),
        index: fc.nat({ max: 2 ** 40 }),
        width: fc.option(fc.integer({ min: 1, max: 255 })),
      }),
      fc.record({
        kind: fc.constant('entries' as const),
        index: fc.nat({ max: 2 ** 40 }),
        width: fc.option(fc.integer({ min: 1, max: 255 })),
      }),
    );
    fc.assert(
      fc.property(pathArb, (path) => {
        expect(parseTilePath(formatTilePath(path))).toEqual(path);
      }),
    );
  });

  it('refuses non-canonical or out-of-range paths', () => {
    for (const bad of [
      '0/0',
      '0/x000/001',
      '00/000',
      '64/000',
      '0/000.p/0',
      '0/000.p/256',
      '0/000.p/07',
      'entries/1',
      'data/000',
      '0/000/',
      '0/x1/000',
    ])
      expect([bad, parseTilePath(bad)]).toEqual([bad, null]);
  });

  it('says a tile exists once the tree holds all the leaves it covers', () => {
    const full0 = parseTilePath('0/000')!;
    expect([tileExists(full0, 255), tileExists(full0, 256)]).toEqual([false, true]);
    const partial1 = parseTilePath('1/000.p/1')!;
    expect([tileExists(partial1, 255), tileExists(partial1, 256)]).toEqual([false, true]);
    expect(tileExists(parseTilePath('2/000.p/1')!, 65_536)).toBe(true);
    expect(tileExists(parseTilePath('63/000')!, 2 ** 52)).toBe(false);
  });
});
