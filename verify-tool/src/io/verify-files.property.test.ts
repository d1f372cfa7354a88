import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { VerifyError } from '../errors.js';
import { verifyExportLines, type ExportVerifyOptions } from '../export/verify.js';
import { formatVkey, noteSigner } from '../note/keys.js';
import { trustVkey } from '../note/keyring.js';
import { chainOf, exportLinesOf } from '../testing/ledger.js';
import { verifyExportFile } from './verify-files.js';

const dir = mkdtempSync(join(tmpdir(), 'runledger-verify-fast-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const signer = noteSigner('runledger.example', new Uint8Array(32).fill(9));
const keys = [trustVkey(formatVkey(signer.name, signer.publicKey))];
const ORG = 'org_fast';

/** Small receipts with non-ASCII text, so blocks of a few hundred bytes split a file often. */
const payload = (seq: number, parent: string) => ({
  v: 1,
  org_id: ORG,
  org_seq: seq,
  parent_hash: parent,
  minted_at: new Date(Date.UTC(2025, 0, 1) + seq * 1000).toISOString(),
  note: `receipt ${seq} — café ✓ 事故`,
});
const CHAIN = chainOf(24, ORG, payload);

/** One way of damaging an export's text (lines without newlines, header first). */
const tamper = fc.oneof(
  fc.constant((lines: string[]) => lines),
  fc
    .record({ at: fc.nat(), byte: fc.integer({ min: 32, max: 126 }) })
    .map(({ at, byte }) => (lines: string[]) => {
      const i = 1 + (at % (lines.length - 1));
      const line = lines[i]!;
      const j = at % line.length;
      lines[i] = line.slice(0, j) + String.fromCharCode(byte) + line.slice(j + 1);
      return lines;
    }),
  fc.nat().map((at) => (lines: string[]) => {
    lines.splice(1 + (at % (lines.length - 1)), 1);
    return lines;
  }),
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => (lines: string[]) => {
    const i = 1 + (a % (lines.length - 1));
    const j = 1 + (b % (lines.length - 1));
    [lines[i], lines[j]] = [lines[j]!, lines[i]!];
    return lines;
  }),
  fc.nat().map((at) => (lines: string[]) => {
    const i = 1 + (at % (lines.length - 1));
    lines.splice(i, 0, lines[i]!);
    return lines;
  }),
  fc.nat().map((at) => (lines: string[]) => {
    lines.splice(1 + (at % (lines.length - 1)), 0, '', '  ');
    return lines;
  }),
  // Another tool re-serialized a line: keys in another order, the payload parsed and re-written.
  fc.nat().map((at) => (lines: string[]) => {
    const i = 1 + (at % (lines.length - 1));
    try {
      const { payload: p, ...rest } = JSON.parse(lines[i]!) as Record<string, unknown>;
      lines[i] = JSON.stringify({ payload: p, ...rest });
    } catch {
      // a blank or already damaged line stays as it is
    }
    return lines;
  }),
  // A payload of another org, re-hashed: a finding on org_id only when the org is known.
  fc.nat().map((at) => (lines: string[]) => {
    const i = 1 + (at % (lines.length - 1));
    lines[i] = lines[i]!.replace(`"org_id":"${ORG}"`, '"org_id":"org_other"');
    return lines;
  }),
);

const shape = fc.record({
  n: fc.integer({ min: 0, max: CHAIN.length }),
  signed: fc.boolean(),
  damage: fc.array(tamper, { maxLength: 2 }),
  crlf: fc.boolean(),
  trailingNewline: fc.boolean(),
  cut: fc.option(fc.nat(), { nil: undefined }),
  blockSize: fc.integer({ min: 16, max: 4096 }),
  threads: fc.constantFrom(0, 1, 2, 3),
  org: fc.constantFrom(undefined, ORG, 'org_other'),
  strict: fc.boolean(),
});

/** The straightforward path: the text split into lines as strings, pushed one by one. */
function referenceLines(text: string): string[] {
  const lines = text.split('\n');
  const last = lines.pop() as string;
  const out = lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (last !== '') out.push(last);
  return out;
}

async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return { result: await run() };
  } catch (error) {
    if (!(error instanceof VerifyError)) throw error;
    return { thrown: error.code, message: error.message };
  }
}

describe('verifyExportFile (blocks, threads) against line-by-line verification', () => {
  it('gives the same verdict, findings and lines for valid, tampered, cut and CRLF exports', async () => {
    let file = 0;
    await fc.assert(
      fc.asyncProperty(shape, async (s) => {
        const entries = CHAIN.slice(0, s.n);
        let lines = exportLinesOf(entries, ORG, s.signed ? signer : undefined);
        for (const damage of s.damage) if (lines.length > 1) lines = damage(lines);
        let text = lines.join(s.crlf ? '\r\n' : '\n') + (s.trailingNewline ? '\n' : '');
        if (s.cut !== undefined) text = text.slice(0, s.cut % (text.length + 1));
        const path = join(dir, `export-${(file += 1)}.ndjson`);
        writeFileSync(path, text);
        const options: ExportVerifyOptions = { keys, strict: s.strict, progressEvery: 5 };
        if (s.org !== undefined) options.expectedOrgId = s.org;
        const seen: number[][] = [[], []];
        const fast = await outcome(() =>
          verifyExportFile(path, {
            ...options,
            threads: s.threads,
            blockSize: s.blockSize,
            onProgress: (n) => seen[0]!.push(n),
          }),
        );
        const reference = await outcome(() =>
          verifyExportLines(referenceLines(text), {
            ...options,
            onProgress: (n) => seen[1]!.push(n),
          }),
        );
        expect(fast).toEqual(reference);
        expect(seen[0]).toEqual(seen[1]);
      }),
      { numRuns: 300 },
    );
  });
});
