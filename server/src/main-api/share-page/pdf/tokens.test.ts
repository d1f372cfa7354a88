import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isolate, missingGlyph, tokenize, visualOrder } from './tokens.js';

const drawn = (text: string) =>
  visualOrder(tokenize(text).tokens)
    .map((t) => t.text)
    .join('');

describe('PDF text tokens', () => {
  it('keep left-to-right text in order, one face a run', () => {
    const { tokens, rtl } = tokenize('café Ωμέγα журнал');
    expect(rtl).toBe(false);
    expect(tokens.map((t) => t.text)).toEqual(['café', ' ', 'Ωμέγα', ' ', 'журнал']);
    expect(new Set(tokens.map((t) => t.face))).toEqual(new Set(['latin']));
  });

  it('give each script the face that has its glyphs', () => {
    const faces = tokenize('a 事 ש م ✗')
      .tokens.filter((t) => !t.space)
      .map((t) => t.face);
    expect(faces).toEqual(['latin', 'cjk', 'hebrew', 'arabic', 'symbols']);
  });

  it('draw the words of a right-to-left paragraph right to left, each word kept whole for shaping', () => {
    const { tokens, rtl } = tokenize('שלום עולם');
    expect(rtl).toBe(true);
    expect(visualOrder(tokens).map((t) => t.text)).toEqual(['עולם', ' ', 'שלום']);
  });

  it('keep a number inside right-to-left text left to right', () => {
    const order = visualOrder(tokenize('מספר 123 כאן').tokens).map((t) => t.text);
    expect(order).toEqual(['כאן', ' ', '123', ' ', 'מספר']);
  });

  it('mirror brackets drawn inside right-to-left text', () => {
    // Left to right on the page: the logical ")" drawn as "(", the word, the logical "(" drawn as ")".
    expect(drawn('שלום (עולם)')).toBe('(עולם) שלום');
    expect(drawn('a (b)')).toBe('a (b)');
  });

  it('keep an isolated stored string from pulling the number after it into its direction', () => {
    // Without isolation the bidi algorithm draws "2 · שלום": the number joins the Hebrew run.
    expect(drawn('log · журнал שלום · 2 bytes')).toBe('log · журнал 2 · שלום bytes');
    expect(drawn(`log · ${isolate('журнал שלום')} · 2 bytes`)).toBe('log · журнал שלום · 2 bytes');
  });

  it('turn a character no face has into a visible marker of its code point', () => {
    expect(missingGlyph(0x1f600)).toBe('[U+1F600]');
    const tokens = tokenize('a😀b').tokens;
    expect(tokens.map((t) => t.text)).toEqual(['a', '[U+1F600]', 'b']);
    expect(tokens[1]?.face).toBeNull();
  });

  it('lose no left-to-right character and reorder nothing in text with no right-to-left script', () => {
    const ltr = fc.stringMatching(/^[A-Za-z0-9 .,;:!?é—…ΩжЖ事本]{0,40}$/);
    fc.assert(
      fc.property(ltr, (text) => {
        expect(drawn(text)).toBe(text.replaceAll('\t', ' '));
      }),
    );
  });

  it('draw any mix of scripts as a permutation of its tokens', () => {
    const mixed = fc.stringMatching(/^[a-z0-9 ().,שלוםمرحبا事✓]{0,40}$/);
    fc.assert(
      fc.property(mixed, (text) => {
        const { tokens } = tokenize(text);
        const sorted = (list: { text: string }[]) => list.map((t) => t.text).sort();
        expect(sorted(visualOrder(tokens))).toEqual(sorted(tokens));
      }),
    );
  });
});
