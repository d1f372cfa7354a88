import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { woffToSfnt } from './woff.js';

const require = createRequire(import.meta.url);
const fontkit = require('fontkit') as {
  create(bytes: Buffer): {
    numGlyphs: number;
    postscriptName: string;
    hasGlyphForCodePoint(cp: number): boolean;
    glyphForCodePoint(cp: number): { advanceWidth: number; path: { toSVG(): string } };
  };
};

const woff = readFileSync(
  require.resolve('@fontsource/noto-sans-symbols-2/files/noto-sans-symbols-2-symbols-400-normal.woff'),
);

describe('woffToSfnt', () => {
  it('unwraps a WOFF font into the same font: glyphs, metrics and outlines agree', () => {
    const fromWoff = fontkit.create(woff);
    const sfnt = woffToSfnt(woff);
    const fromSfnt = fontkit.create(sfnt);
    expect(sfnt.readUInt32BE(0)).toBe(0x00010000);
    expect(fromSfnt.postscriptName).toBe(fromWoff.postscriptName);
    expect(fromSfnt.numGlyphs).toBe(fromWoff.numGlyphs);
    for (const ch of '✓✗✔✘⚠') {
      const cp = ch.codePointAt(0) as number;
      expect(fromSfnt.hasGlyphForCodePoint(cp)).toBe(true);
      expect(fromSfnt.glyphForCodePoint(cp).advanceWidth).toBe(
        fromWoff.glyphForCodePoint(cp).advanceWidth,
      );
      expect(fromSfnt.glyphForCodePoint(cp).path.toSVG()).toBe(
        fromWoff.glyphForCodePoint(cp).path.toSVG(),
      );
    }
  });

  it('refuses a file that is not WOFF 1.0', () => {
    expect(() => woffToSfnt(Buffer.from('OTTO0000000000000000'))).toThrow('not a WOFF 1.0 font');
  });
});
