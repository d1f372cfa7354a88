import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { woffToSfnt } from './woff.js';

/**
 * The faces the PDF embeds, in fallback order: each character is drawn with the first face that has a
 * glyph for it. All are Noto fonts (SIL OFL) from npm packages and are read from node_modules, never
 * downloaded; pdfkit embeds only the glyphs a document uses (subsetting).
 */
export type FaceName = 'latin' | 'hebrew' | 'arabic' | 'cjk' | 'korean' | 'symbols';

const require = createRequire(import.meta.url);

/** The one fontkit call used here (fontkit ships no types); pdfkit embeds with the same library. */
const fontkit = require('fontkit') as {
  create(bytes: Buffer): { hasGlyphForCodePoint(codePoint: number): boolean };
};

/** The regular and bold files of a family in an @embedpdf font package's `fonts/` folder (the package exports only its index). */
function embedpdf(pkg: string, family: string, ext: 'ttf' | 'otf') {
  const file = (weight: string) =>
    join(dirname(require.resolve(pkg)), '..', 'fonts', `${family}-${weight}.${ext}`);
  return { regular: () => file('Regular'), bold: () => file('Bold') };
}

const SYMBOLS = () =>
  require.resolve('@fontsource/noto-sans-symbols-2/files/noto-sans-symbols-2-symbols-400-normal.woff');

const FILES: Record<FaceName, { regular: () => string; bold: () => string }> = {
  // Latin, Greek, Cyrillic, general punctuation (— … €).
  latin: embedpdf('@embedpdf/fonts-latin', 'NotoSans', 'ttf'),
  hebrew: embedpdf('@embedpdf/fonts-hebrew', 'NotoSansHebrew', 'ttf'),
  arabic: embedpdf('@embedpdf/fonts-arabic', 'NotoNaskhArabic', 'ttf'),
  // Noto Sans Hans: Chinese ideographs and Japanese kana (Korean Hangul is not in it).
  cjk: embedpdf('@embedpdf/fonts-sc', 'NotoSansHans', 'otf'),
  // Noto Sans KR: Korean Hangul syllables and jamo.
  korean: embedpdf('@embedpdf/fonts-kr', 'NotoSansKR', 'otf'),
  // ✓ ✗ ✔ ✘ ⚠ and other dingbats, in one weight.
  symbols: { regular: SYMBOLS, bold: SYMBOLS },
};

// Symbols before CJK: Noto Sans Hans also has ✓, and opening an 8 MB face for one tick is slow.
// Korean last: only Hangul reaches it (every ideograph and kana is in the CJK face before it).
export const FACES: readonly FaceName[] = ['latin', 'hebrew', 'arabic', 'symbols', 'cjk', 'korean'];

const bytes = new Map<string, Buffer>();

/** A font file's bytes, read once per process. */
export function fontBytes(face: FaceName, bold: boolean): Buffer {
  const path = bold ? FILES[face].bold() : FILES[face].regular();
  let found = bytes.get(path);
  if (found === undefined) {
    const raw = readFileSync(path);
    found = path.endsWith('.woff') ? woffToSfnt(raw) : raw;
    bytes.set(path, found);
  }
  return found;
}

const coverage = new Map<FaceName, (codePoint: number) => boolean>();
const faceOfCodePoint = new Map<number, FaceName | null>();

/** Whether the face has a glyph for the code point. */
export function covers(face: FaceName, codePoint: number): boolean {
  let has = coverage.get(face);
  if (has === undefined) {
    const font = fontkit.create(fontBytes(face, false));
    has = (cp) => font.hasGlyphForCodePoint(cp);
    coverage.set(face, has);
  }
  return has(codePoint);
}

/** The first face with a glyph for the code point, or null when none has one. */
export function faceFor(codePoint: number): FaceName | null {
  if (faceOfCodePoint.has(codePoint)) return faceOfCodePoint.get(codePoint) ?? null;
  const face = FACES.find((f) => covers(f, codePoint)) ?? null;
  faceOfCodePoint.set(codePoint, face);
  return face;
}

/** The pdfkit font name of a face (registered by registerFaces). */
export const fontName = (face: FaceName, bold: boolean) => `${face}${bold ? '-bold' : ''}`;

/** Registers every face with a document; pdfkit opens and embeds a face only when text uses it. */
export function registerFaces(doc: PDFKit.PDFDocument): void {
  for (const face of FACES) {
    doc.registerFont(fontName(face, false), fontBytes(face, false));
    doc.registerFont(fontName(face, true), fontBytes(face, true));
  }
}
