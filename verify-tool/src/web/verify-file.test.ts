import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyExportLines } from '../export/verify.js';
import { formatVkey, noteSigner } from '../note/keys.js';
import { trustVkey } from '../note/keyring.js';
import { chainOf, exportLinesOf } from '../testing/ledger.js';
import { verifyFile } from './verify-file.js';

const owner = noteSigner('runledger.example', new Uint8Array(32).fill(1));
const keys = [trustVkey(formatVkey(owner.name, owner.publicKey))];
const lines = exportLinesOf(chainOf(8, 'org_w'), 'org_w', owner);
const blobOf = (text: string) => new Blob([text]);

describe('verifyFile (the page’s reading of a file)', () => {
  it('finds what the library finds in the same export, for any single edited byte', async () => {
    const text = lines.join('\n') + '\n';
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: lines[0]!.length + 1, max: text.length - 2 }),
        fc.integer({ min: 0x20, max: 0x7e }),
        async (at, code) => {
          const edited = text.slice(0, at) + String.fromCharCode(code) + text.slice(at + 1);
          const report = await verifyFile(blobOf(edited), { keys });
          const library = await verifyExportLines(edited.split('\n').slice(0, -1), { keys }).then(
            (r) => r.errors.map((e) => [e.code, e.line ?? null, e.receipt_id]),
            (e: { code: string }) => [[e.code, null, null]],
          );
          expect(report.findings.map((f) => [f.code, f.line, f.receipt_id])).toEqual(library);
          expect(report.verdict === 'intact').toBe(library.length === 0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reports progress up to the whole file', async () => {
    const text = lines.join('\n');
    const seen: number[] = [];
    const report = await verifyFile(blobOf(text), {
      keys,
      onProgress: (bytes, total) => void seen.push(bytes / total),
    });
    expect(report.verdict).toBe('intact');
    expect(seen.at(-1)).toBe(1);
  });

  it('takes a one-document JSON for a share and a first line with `format` for an export', async () => {
    expect(await verifyFile(blobOf(lines[0]!))).toMatchObject({
      subject: 'export',
      verdict: 'unreadable',
      headline: 'NOT VERIFIED: the export is truncated',
    });
    expect((await verifyFile(blobOf('{\n "receipt_id": 1\n}'))).subject).toBe('share');
    expect((await verifyFile(blobOf('{"receipt_id": 1}'))).verdict).toBe('unreadable');
  });

  it('verifies a PDF by its attached share.json, and refuses a PDF without one', async () => {
    const pdfOf = (name: string, json: string) =>
      blobOf(
        `%PDF-1.3\n9 0 obj\n<<\n/Type /EmbeddedFile\n/Length ${new TextEncoder().encode(json).length}\n>>\nstream\n${json}\nendstream\nendobj\n` +
          `10 0 obj\n<<\n/Type /Filespec\n/F (${name})\n/EF <<\n/F 9 0 R\n>>\n>>\nendobj\n%%EOF\n`,
      );
    const receipt = lines[2]!;
    const bundled = await verifyFile(pdfOf('share.json', receipt));
    // The export line is a receipt without checkpoint or proof: what a share JSON of it proves.
    expect(bundled).toMatchObject({ subject: 'share', verdict: 'partial' });
    expect(bundled.facts[0]).toEqual(['Read from', 'share.json embedded in the PDF']);
    const edited = await verifyFile(pdfOf('share.json', receipt.replace('"org_w"', '"org_x"')));
    expect(edited.findings.map((f) => f.code)).toContain('hash_mismatch');
    const bare = await verifyFile(pdfOf('notes.json', receipt));
    expect(bare).toMatchObject({ verdict: 'unreadable', findings: [{ code: 'no_bundle' }] });
  });
});
