import { fontName } from './fonts.js';
import { tokenize, visualOrder, type Token } from './tokens.js';

type Doc = PDFKit.PDFDocument;

export interface TextStyle {
  size: number;
  bold?: boolean;
  color?: string;
}

/** Where missing-glyph markers are drawn: visibly different from the text around them. */
const MISSING_COLOR = '#b42318';
const LINE_HEIGHT = 1.45;

/** Advance widths at size 1 by face and text: a width depends only on the font, so it is measured once. */
const widths = new Map<string, number>();
const MAX_CACHED_WIDTHS = 50_000;

function width(doc: Doc, token: Token, style: TextStyle): number {
  const font = fontName(token.face ?? 'latin', style.bold === true);
  const key = `${font}\u0000${token.text}`;
  let unit = widths.get(key);
  if (unit === undefined) {
    unit = doc.font(font).fontSize(1000).widthOfString(token.text) / 1000;
    if (widths.size >= MAX_CACHED_WIDTHS) widths.clear();
    widths.set(key, unit);
  }
  return unit * style.size;
}

interface Line {
  tokens: Token[];
  width: number;
}

/** Greedy line breaking in logical order; a word wider than the line is cut between characters. */
function breakLines(doc: Doc, tokens: Token[], maxWidth: number, style: TextStyle): Line[] {
  const words: Token[][] = [];
  for (const token of tokens) {
    if (token.breakBefore || words.length === 0) words.push([token]);
    else words.at(-1)?.push(token);
  }
  const lines: Line[] = [{ tokens: [], width: 0 }];
  const place = (word: Token[]) => {
    const line = lines.at(-1) as Line;
    const w = word.reduce((sum, t) => sum + width(doc, t, style), 0);
    if (line.tokens.length > 0 && line.width + w > maxWidth) {
      if (word.every((t) => t.space)) return;
      lines.push({ tokens: [...word], width: w });
      return;
    }
    if (line.tokens.length === 0 && word.every((t) => t.space)) return;
    line.tokens.push(...word);
    line.width += w;
  };
  for (const word of words) {
    const w = word.reduce((sum, t) => sum + width(doc, t, style), 0);
    if (w <= maxWidth) {
      place(word);
      continue;
    }
    // A hash or URL longer than the line: one character at a time.
    for (const token of word)
      for (const ch of token.text) place([{ ...token, text: ch, breakBefore: true }]);
  }
  for (const line of lines) {
    while (line.tokens.at(-1)?.space) {
      line.width -= width(doc, line.tokens.pop() as Token, style);
    }
  }
  return lines;
}

/** Draws one line's tokens left to right from x on the baseline y. */
function drawLine(doc: Doc, tokens: readonly Token[], x: number, y: number, style: TextStyle) {
  // pdfkit moves its cursor after each piece of text; the layout here keeps its own.
  const cursor = { x: doc.x, y: doc.y };
  let at = x;
  for (const token of tokens) {
    doc
      .font(fontName(token.face ?? 'latin', style.bold === true))
      .fontSize(style.size)
      .fillColor(token.face === null ? MISSING_COLOR : (style.color ?? '#000'))
      .text(token.text, at, y, { lineBreak: false, baseline: 'alphabetic' });
    at += width(doc, token, style);
  }
  doc.fillColor('#000');
  doc.x = cursor.x;
  doc.y = cursor.y;
}

export interface Box {
  x: number;
  width: number;
}

/**
 * Writes text at doc.y inside the box, wrapping lines and starting a new page when the page is full.
 * Every script is drawn with an embedded face that has its glyphs; a right-to-left paragraph is laid
 * out by the Unicode bidi algorithm and set flush right.
 */
export function writeText(doc: Doc, text: string, box: Box, style: TextStyle): void {
  const lineHeight = style.size * LINE_HEIGHT;
  const bottom = doc.page.height - doc.page.margins.bottom;
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    const { tokens, rtl } = tokenize(paragraph);
    for (const line of breakLines(doc, tokens, box.width, style)) {
      if (doc.y + lineHeight > bottom) doc.addPage();
      const x = rtl ? box.x + box.width - line.width : box.x;
      drawLine(doc, visualOrder(line.tokens), x, doc.y + style.size, style);
      doc.y += lineHeight;
    }
  }
}

/** One line of text that never wraps or breaks the page (headers, footers): returns its width. */
export function writeLine(doc: Doc, text: string, x: number, y: number, style: TextStyle): number {
  const { tokens } = tokenize(text);
  drawLine(doc, visualOrder(tokens), x, y + style.size, style);
  return tokens.reduce((sum, t) => sum + width(doc, t, style), 0);
}

/** The width text would take on one line. */
export function textWidth(doc: Doc, text: string, style: TextStyle): number {
  return tokenize(text).tokens.reduce((sum, t) => sum + width(doc, t, style), 0);
}
