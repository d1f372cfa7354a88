import { createRequire } from 'node:module';
import type { Bidi } from 'bidi-js';
import { covers, faceFor, type FaceName } from './fonts.js';

// bidi-js is CommonJS whose module.exports is the factory; its typings declare a default export.
const bidi = (createRequire(import.meta.url)('bidi-js') as () => Bidi)();

/**
 * A piece of a paragraph drawn with one face at one bidi embedding level. `face` null is a character
 * no embedded font has: it is drawn as a visible `[U+XXXX]` marker, never as some other character.
 */
export interface Token {
  text: string;
  face: FaceName | null;
  /** Unicode bidi embedding level: odd is right to left. */
  level: number;
  space: boolean;
  /** A line may break before this token (after a space, around CJK characters, at a marker). */
  breakBefore: boolean;
  cjk: boolean;
}

/** Ideographs, kana, Hangul and full-width forms: a line may break between any two of them. */
const isCjk = (cp: number) =>
  (cp >= 0x2e80 && cp <= 0x9fff) ||
  (cp >= 0xac00 && cp <= 0xd7af) ||
  (cp >= 0xf900 && cp <= 0xfaff) ||
  (cp >= 0xff00 && cp <= 0xffef) ||
  (cp >= 0x20000 && cp <= 0x3134f);

const RTL_FACES: ReadonlySet<FaceName> = new Set(['hebrew', 'arabic']);
const BIDI_CONTROL = /^[\u200e\u200f\u202a-\u202e\u2066-\u2069]$/u;

/** Stored text set inside a sentence, isolated (FSI … PDI) so its direction cannot reorder the words around it. */
export const isolate = (text: string) => `\u2068${text}\u2069`;

/** Punctuation and symbols: characters with no direction of their own. */
const NEUTRAL = /^[\p{P}\p{S}]$/u;

/** `[U+1F600]`: what a character without a glyph prints as. */
export const missingGlyph = (cp: number) => `[U+${cp.toString(16).toUpperCase().padStart(4, '0')}]`;

/**
 * A right-to-left token in the order it is drawn. fontkit lays out Hebrew and Arabic words right to
 * left itself (and shapes Arabic joining forms), so their text stays in logical order; anything else
 * at an odd level (brackets, dashes, digits' neighbours) is reversed and mirrored here.
 */
function drawnText(token: Token): string {
  if (token.level % 2 === 0 || token.face === null || RTL_FACES.has(token.face)) return token.text;
  return [...token.text]
    .reverse()
    .map((ch) => bidi.getMirroredCharacter(ch) ?? ch)
    .join('');
}

/** A paragraph (no line breaks in it) as tokens in logical order, and its base direction. */
export function tokenize(paragraph: string): { tokens: Token[]; rtl: boolean } {
  const text = paragraph.replaceAll('\t', ' ');
  const { levels, paragraphs } = bidi.getEmbeddingLevels(text);
  const tokens: Token[] = [];
  let index = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    const level = levels[index] ?? 0;
    index += ch.length;
    // Bidi controls (marks, embeddings, isolates) steer the levels above and are never drawn.
    if (BIDI_CONTROL.test(ch)) continue;
    const space = /\s/u.test(ch);
    const prev = tokens.at(-1);
    // Punctuation inside right-to-left text stays with its word when that word's face has it, so the
    // word is laid out (and extracted) as one right-to-left piece.
    const keepsRtlFace =
      !space &&
      prev?.face !== undefined &&
      prev.face !== null &&
      RTL_FACES.has(prev.face) &&
      prev.level === level &&
      NEUTRAL.test(ch) &&
      covers(prev.face, cp);
    const face = space ? 'latin' : keepsRtlFace ? (prev?.face ?? null) : faceFor(cp);
    const cjk = isCjk(cp);
    const joins =
      prev !== undefined &&
      face !== null &&
      prev.face === face &&
      prev.level === level &&
      !space &&
      !prev.space &&
      !cjk &&
      !prev.cjk;
    if (joins) {
      prev.text += ch;
      continue;
    }
    tokens.push({
      text: face === null ? missingGlyph(cp) : ch,
      face,
      level,
      space,
      cjk,
      breakBefore: prev === undefined || space || prev.space || cjk || prev.cjk || face === null,
    });
  }
  return {
    tokens: tokens.map((t) => ({ ...t, text: drawnText(t) })),
    rtl: (paragraphs[0]?.level ?? 0) % 2 === 1,
  };
}

/** Unicode bidi rule L2 over whole tokens: from the highest level down to the lowest odd one, reverse every run at that level or above. */
export function visualOrder(tokens: readonly Token[]): Token[] {
  const out = [...tokens];
  if (out.length === 0) return out;
  const max = Math.max(...out.map((t) => t.level));
  const odd = out.map((t) => t.level).filter((l) => l % 2 === 1);
  if (odd.length === 0) return out;
  const lowestOdd = Math.min(...odd);
  for (let level = max; level >= lowestOdd; level -= 1) {
    let i = 0;
    while (i < out.length) {
      if ((out[i] as Token).level < level) {
        i += 1;
        continue;
      }
      let j = i;
      while (j < out.length && (out[j] as Token).level >= level) j += 1;
      out.splice(i, j - i, ...out.slice(i, j).reverse());
      i = j;
    }
  }
  return out;
}
