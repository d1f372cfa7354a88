import { describe, expect, it } from 'vitest';
import { VerifyError } from '../errors.js';
import { GENESIS_PARENT } from '../receipts/id.js';
import { generateChain, realisticPayload } from '../testing/chain.js';
import { formatExportHeader, formatExportLine } from './format.js';
import { parseExportLine } from './parse.js';
import { verifyExportLines } from './verify.js';

function exportLines(n: number, org = 'org_a'): string[] {
  const entries = [...generateChain(n, (seq, parent) => realisticPayload(org, seq, parent))];
  const head = entries.at(-1)?.receipt_sha256 ?? GENESIS_PARENT;
  return [
    formatExportHeader({
      org_id: org,
      exported_at: '2025-02-01T00:00:00.000Z',
      count: n,
      head_sha256: head,
    }),
    ...entries.map(formatExportLine),
  ];
}

async function* asAsync(lines: string[]): AsyncGenerator<string> {
  yield* lines;
}

const codes = async (lines: string[], options = {}) =>
  (await verifyExportLines(lines, options)).errors.map((e) => `${e.line ?? '-'}:${e.code}`);

async function inputError(lines: Iterable<string> | AsyncIterable<string>): Promise<string> {
  const error: unknown = await verifyExportLines(lines).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VerifyError);
  return (error as VerifyError).code;
}

describe('export format', () => {
  it('writes the payload bytes verbatim as the last key, and reads them back by slicing', () => {
    const [entry] = [...generateChain(1, (seq, parent) => realisticPayload('org_a', seq, parent))];
    const line = formatExportLine(entry!);
    expect(Object.keys(JSON.parse(line) as object)).toEqual([
      'receipt_id',
      'org_seq',
      'parent_hash',
      'receipt_sha256',
      'created_at',
      'payload',
    ]);
    expect(line.endsWith(`"payload":${entry!.payload_text}}`)).toBe(true);
    expect(parseExportLine(line)).toEqual({ ok: true, entry, layout: 'export' });
  });
});

describe('verifyExportLines', () => {
  it('accepts an intact export, streamed or not, and an empty ledger', async () => {
    const result = await verifyExportLines(asAsync(exportLines(4)));
    expect(result).toMatchObject({ ok: true, receipts_checked: 4, errors: [] });
    expect(result.header.org_id).toBe('org_a');
    expect((await verifyExportLines(exportLines(0))).ok).toBe(true);
  });

  it('locates an edited payload by line and receipt', async () => {
    const lines = exportLines(4);
    lines[3] = lines[3]!.replace('"outcome":"pass"', '"outcome":"fail"');
    const result = await verifyExportLines(lines);
    expect(result.errors).toEqual([
      expect.objectContaining({ line: 4, org_seq: 2, code: 'hash_mismatch' }),
    ]);
  });

  it('verifies a line re-serialized by another tool through the canonical form, except in strict mode', async () => {
    const lines = exportLines(3);
    const obj = JSON.parse(lines[2]!) as Record<string, unknown>;
    lines[2] = JSON.stringify({ payload: obj.payload, ...obj }, null, 1).replaceAll('\n', '');
    expect(parseExportLine(lines[2]).ok && parseExportLine(lines[2])).toMatchObject({
      layout: 'reserialized',
    });
    expect(await codes(lines)).toEqual([]);
    expect(await codes(lines, { strict: true })).toEqual(['3:not_canonical']);
  });

  it('reports a malformed receipt line and keeps going', async () => {
    const lines = exportLines(4);
    lines[2] = '{"receipt_id": oops';
    expect(await codes(lines)).toEqual(['3:bad_line', '4:seq_gap']);
  });

  it('reports extra lines, a wrong head and a foreign header org', async () => {
    const lines = exportLines(3);
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(await codes([JSON.stringify({ ...header, count: 2 }), ...lines.slice(1)])).toEqual([
      '-:count_mismatch',
    ]);
    const forgedHead = { ...header, head_sha256: 'f'.repeat(64) };
    expect(await codes([JSON.stringify(forgedHead), ...lines.slice(1)])).toEqual([
      '-:head_mismatch',
    ]);
    expect(
      await codes([JSON.stringify({ ...header, org_id: 'org_z' }), ...lines.slice(1)]),
    ).toEqual(['-:header_mismatch']);
    expect(await codes(lines, { expectedOrgId: 'org_z' })).toEqual([
      '2:field_mismatch',
      '3:field_mismatch',
      '4:field_mismatch',
      '-:header_mismatch',
    ]);
  });

  it('uses the receipt prefix the header announces', async () => {
    const lines = exportLines(2);
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    const withPrefix = [JSON.stringify({ ...header, receipt_prefix: 'acme' }), ...lines.slice(1)];
    expect(await codes(withPrefix)).toEqual(['2:id_mismatch', '3:id_mismatch']);
  });

  it('throws typed input errors for empty input, a missing header and truncation', async () => {
    const lines = exportLines(3);
    expect(await inputError([])).toBe('bad_header');
    expect(await inputError(lines.slice(1))).toBe('bad_header');
    expect(await inputError(['not json'])).toBe('bad_header');
    expect(await inputError([JSON.stringify({ format: 'other/v1' })])).toBe('bad_header');
    expect(await inputError([...lines.slice(0, 3), lines[3]!.slice(0, 200)])).toBe(
      'truncated_input',
    );
    expect(await inputError(lines.slice(0, 3))).toBe('truncated_input');
  });

  it('skips blank lines but counts them in line numbers', async () => {
    const lines = exportLines(2);
    lines.splice(2, 0, '');
    lines[3] = lines[3]!.replace('"score":100', '"score":1');
    expect(await codes([...lines, ''])).toEqual(['4:hash_mismatch']);
  });

  it('reports progress', async () => {
    const seen: number[] = [];
    await verifyExportLines(exportLines(5), { progressEvery: 2, onProgress: (n) => seen.push(n) });
    expect(seen).toEqual([2, 4, 5]);
  });
});
