import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatExportHeader, formatExportLine } from '../export/format.js';
import {
  FIRST_PREV_CHECKSUM,
  formatRouterReceiptLine,
  sealRouterReceipt,
} from '../router/receipt.js';
import { generateChain, realisticPayload } from '../testing/chain.js';

const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(PACKAGE, 'dist/cli/main.js');
let dir: string;

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function writeExport(name: string, n: number, tamper?: (lines: string[]) => void): string {
  const entries = [...generateChain(n, (seq, parent) => realisticPayload('org_cli', seq, parent))];
  const lines = [
    formatExportHeader({
      org_id: 'org_cli',
      exported_at: '2025-02-01T00:00:00.000Z',
      count: n,
      head_sha256: entries.at(-1)!.receipt_sha256,
    }),
    ...entries.map(formatExportLine),
  ];
  tamper?.(lines);
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

beforeAll(() => {
  execFileSync('npx', ['tsc', '-b', PACKAGE], { stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'runledger-verify-cli-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runledger-verify', () => {
  it('starts with a shebang so npx can run it', () => {
    expect(readFileSync(BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('exits 0 and says OK for an intact export', () => {
    const run = cli(writeExport('ok.ndjson', 5));
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('5 receipts checked');
    expect(run.stdout).toContain('OK');
  });

  it('exits 1 and names the receipt and code of a tampered export', () => {
    let id = '';
    const path = writeExport('bad.ndjson', 5, (lines) => {
      id = (JSON.parse(lines[3]!) as { receipt_id: string }).receipt_id;
      lines[3] = lines[3]!.replace('"score":100', '"score":10');
    });
    const run = cli(path);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('TAMPERED');
    expect(run.stdout).toMatch(new RegExp(`hash_mismatch\\s+line 4\\s+${id}`));
    const json = JSON.parse(cli('--json', path).stdout) as {
      ok: boolean;
      errors: { receipt_id: string; code: string }[];
    };
    expect(json.ok).toBe(false);
    expect(json.errors).toEqual([
      expect.objectContaining({ receipt_id: id, code: 'hash_mismatch' }),
    ]);
  });

  it('exits 2 with a clear message for a missing, truncated or foreign file', () => {
    const missing = cli(join(dir, 'nope.ndjson'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    const truncated = cli(
      writeExport('cut.ndjson', 3, (lines) => (lines[3] = lines[3]!.slice(0, 100))),
    );
    expect(truncated.code).toBe(2);
    expect(truncated.stderr).toContain('truncated');
    writeFileSync(join(dir, 'notes.txt'), 'hello\n');
    const foreign = cli('--json', join(dir, 'notes.txt'));
    expect(foreign.code).toBe(2);
    expect(JSON.parse(foreign.stdout)).toMatchObject({ ok: false, error: { code: 'bad_header' } });
  });

  it('exits 2 on bad usage', () => {
    expect(cli().code).toBe(2);
    expect(cli('--bogus', 'x').stderr).toContain('unknown option --bogus');
    expect(cli('--help')).toMatchObject({ code: 0 });
  });

  it('verifies router receipt directories and files, exiting 1 on a tampered line', () => {
    const receipts = join(dir, 'receipts');
    mkdirSync(receipts);
    for (const day of ['2025-03-01', '2025-03-02']) {
      let prev = FIRST_PREV_CHECKSUM;
      const lines: string[] = [];
      for (let seq = 1; seq <= 3; seq += 1) {
        const receipt = sealRouterReceipt(
          {
            receipt_id: `rr_${day}_${seq}`,
            type: 'compute_quote',
            created_at: `${day}T01:00:0${seq}.000Z`,
            seq,
            subject: 'mem_1',
            amount: '10.00',
            currency: 'USD',
          },
          prev,
        );
        prev = receipt.checksum_sha256;
        lines.push(formatRouterReceiptLine(receipt));
      }
      writeFileSync(join(receipts, `${day}.receipts.jsonl`), lines.join('\n') + '\n');
    }
    const ok = cli('receipts', receipts);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('2 files, 6 router receipts checked');

    const file = join(receipts, '2025-03-02.receipts.jsonl');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"amount":"10.00"', '"amount":"99.00"'));
    const bad = cli('receipts', '--json', file);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({
      ok: false,
      errors: [{ file, line: 1, receipt_id: 'rr_2025-03-02_1', code: 'checksum_mismatch' }],
    });
    expect(cli('receipts', join(dir, 'missing-dir')).code).toBe(2);
  });
});
