import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { embeddedShareJson, isPdf, PdfBundleError } from './pdf-bundle.js';

const SHARE = JSON.stringify({ receipt_id: 'rcpt-000001-48adaf03', note: 'grüße ✓' });

interface Embedded {
  data: Uint8Array;
  filter?: string;
  name?: string;
  num?: number;
}

/** A PDF as pdfkit writes one: the embedded-file stream, its file specification, the catalog. */
function pdfWith(files: Embedded[], tail = ''): Uint8Array {
  const parts: (string | Uint8Array)[] = ['%PDF-1.3\n%\xff\xff\xff\xff\n'];
  files.forEach(({ data, filter, name = 'share.json', num = 9 }, i) => {
    const spec = num + 100 + i;
    parts.push(
      `${num} 0 obj\n<<\n/Type /EmbeddedFile\n/Subtype /application#2Fjson\n/Length ${data.length}\n${filter ? `/Filter /${filter}\n` : ''}>>\nstream\n`,
      data,
      `\nendstream\nendobj\n${spec} 0 obj\n<<\n/Type /Filespec\n/F (${name})\n/EF <<\n/F ${num} 0 R\n>>\n/UF (${name})\n>>\nendobj\n`,
    );
  });
  parts.push(`1 0 obj\n<<\n/Type /Catalog\n>>\nendobj\n${tail}%%EOF\n`);
  const chunks = parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p));
  return new Uint8Array(Buffer.concat(chunks));
}

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('embeddedShareJson (the receipt PDF’s bundle)', () => {
  it('inflates a FlateDecode share.json, bytes beyond Latin-1 included', async () => {
    const pdf = pdfWith([{ data: deflateSync(utf8(SHARE)), filter: 'FlateDecode' }]);
    expect(isPdf(pdf)).toBe(true);
    expect(await embeddedShareJson(pdf)).toBe(SHARE);
  });

  it('gives back any text it was given, whatever bytes the deflate stream holds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 400 }), async (text) => {
        const pdf = pdfWith([{ data: deflateSync(utf8(text)), filter: 'FlateDecode' }]);
        expect(await embeddedShareJson(pdf)).toBe(text);
      }),
      { numRuns: 100 },
    );
  });

  it('reads an unfiltered share.json as it stands', async () => {
    expect(await embeddedShareJson(pdfWith([{ data: utf8(SHARE) }]))).toBe(SHARE);
  });

  it('takes the last definition, as an incremental update would have it', async () => {
    const pdf = pdfWith([
      { data: utf8('{"old":1}') },
      { data: deflateSync(utf8(SHARE)), filter: 'FlateDecode', num: 12 },
    ]);
    expect(await embeddedShareJson(pdf)).toBe(SHARE);
  });

  it('finds share.json among other embedded files, and nothing in a PDF without it', async () => {
    const other = { data: utf8('{"x":1}'), name: 'other.json', num: 20 };
    expect(await embeddedShareJson(pdfWith([other, { data: utf8(SHARE) }]))).toBe(SHARE);
    expect(await embeddedShareJson(pdfWith([other]))).toBeNull();
    expect(await embeddedShareJson(pdfWith([]))).toBeNull();
  });

  it('refuses a bundle it cannot read: another filter, a broken deflate stream, a missing object', async () => {
    const lzw = pdfWith([{ data: utf8(SHARE), filter: 'LZWDecode' }]);
    await expect(embeddedShareJson(lzw)).rejects.toThrow(/encoded with LZWDecode/);
    const broken = pdfWith([{ data: utf8('not deflate'), filter: 'FlateDecode' }]);
    await expect(embeddedShareJson(broken)).rejects.toThrow(PdfBundleError);
    const dangling = new TextEncoder().encode(
      '%PDF-1.3\n5 0 obj\n<<\n/Type /Filespec\n/F (share.json)\n/EF <<\n/F 9 0 R\n>>\n>>\nendobj\n',
    );
    await expect(embeddedShareJson(dangling)).rejects.toThrow(/names share.json but lacks it/);
  });

  it('tells a PDF from other files by its first bytes', () => {
    expect(isPdf(utf8('%PDF-1.7'))).toBe(true);
    expect(isPdf(utf8('{"format":'))).toBe(false);
    expect(isPdf(utf8('%PD'))).toBe(false);
  });
});
