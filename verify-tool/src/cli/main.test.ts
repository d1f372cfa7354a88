import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatExportHeader, formatExportLine } from '../export/format.js';
import { generateChain, realisticPayload } from '../testing/chain.js';
import { chainOf, checkpointFor, exportLinesOf } from '../testing/ledger.js';
import { dayFileWithAnchor } from '../testing/router.js';
import { formatVkey, noteSigner } from '../note/keys.js';
import { publishedKey } from '../note/keyring.js';
import { CompactTree } from '../merkle/compact.js';
import { leafHash } from '../merkle/hash.js';
import { consistencyProof, inclusionProof } from '../merkle/proof.js';
import { receiptLeaf } from '../ledger/receipt-tree.js';
import { toHex } from '../hash/hex.js';

const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(PACKAGE, 'dist/cli/main.js');
let dir: string;
const owner = noteSigner('runledger.example', new Uint8Array(32).fill(5));
const ownerVkey = formatVkey(owner.name, owner.publicKey);

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

  it("verifies several instances' anchored day files, exiting 1 on a tampered, cut or unanchored file", () => {
    const receipts = join(dir, 'receipts');
    mkdirSync(receipts);
    const days = ['2025-03-01', '2025-03-02'].flatMap((date) =>
      ['inst-a', 'inst-b'].map((instance) => dayFileWithAnchor(date, instance, 3, owner)),
    );
    for (const day of days) {
      writeFileSync(join(receipts, day.name), day.text);
      writeFileSync(join(receipts, day.anchorName), day.anchor);
    }
    const ok = cli('receipts', '--key', ownerVkey, receipts);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('4 files, 12 router receipts checked');
    expect(ok.stdout).toContain('AUTHORSHIP: every anchor is signed');
    expect(cli('receipts', receipts).stdout).toContain('AUTHORSHIP NOT CHECKED');

    const file = join(receipts, days[3]!.name);
    writeFileSync(file, days[3]!.text.replace('"amount":"10.00"', '"amount":"99.00"'));
    const bad = cli('receipts', '--json', file);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({
      ok: false,
      errors: [
        {
          file,
          line: 1,
          receipt_id: days[3]!.lines[0]!.match(/"receipt_id":"([^"]+)"/)![1],
          code: 'checksum_mismatch',
        },
      ],
    });
    // Cut at a line boundary: every remaining line is intact, only the anchor tells.
    writeFileSync(file, days[3]!.lines.slice(0, 2).join('\n') + '\n');
    const cut = cli('receipts', '--json', receipts);
    expect(cut.code).toBe(1);
    expect(
      (JSON.parse(cut.stdout) as { errors: { code: string }[] }).errors.map((e) => e.code),
    ).toEqual(['anchor_mismatch']);
    rmSync(join(receipts, days[0]!.anchorName));
    expect(cli('receipts', receipts).stdout).toContain('anchor_missing');
    expect(cli('receipts', join(dir, 'missing-dir')).code).toBe(2);
  });

  it("checks an export's checkpoint signature with --key (a vkey or a keys.json), and says when it did not", () => {
    const entries = chainOf(5, 'org_cli');
    const path = join(dir, 'signed.ndjson');
    writeFileSync(path, exportLinesOf(entries, 'org_cli', owner).join('\n') + '\n');
    const keysFile = join(dir, 'keys.json');
    writeFileSync(
      keysFile,
      JSON.stringify({ keys: [publishedKey(owner, '2025-01-01T00:00:00.000Z')] }),
    );
    for (const key of [ownerVkey, keysFile]) {
      const run = cli('--key', key, path);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('AUTHORSHIP: signed by runledger.example');
    }
    expect(cli(path).stdout).toContain('AUTHORSHIP NOT CHECKED: no key given');
    const rewritten = chainOf(5, 'org_cli', (seq, parent) => ({
      ...realisticPayload('org_cli', seq, parent),
      rewritten: true,
    }));
    const forged = join(dir, 'forged.ndjson');
    writeFileSync(
      forged,
      exportLinesOf(rewritten, 'org_cli', noteSigner(owner.name, new Uint8Array(32).fill(9))).join(
        '\n',
      ) + '\n',
    );
    const caught = cli('--key', ownerVkey, forged);
    expect(caught.code).toBe(1);
    expect(caught.stdout).toContain('signature_invalid');
    expect(cli('--key', 'nonsense+00000000+AAAA', path).code).toBe(2);
  });

  it('checks one shared receipt, and that a later export extends an earlier one', () => {
    const entries = chainOf(7, 'org_cli');
    const nodes = new Map<string, Uint8Array>();
    const tree = CompactTree.empty();
    for (const e of entries)
      for (const n of tree.append(leafHash(receiptLeaf(e.receipt_sha256))))
        nodes.set(`${n.level}/${n.index}`, n.hash);
    const e = entries[4]!;
    const share = {
      receipt: {
        receipt_id: e.receipt_id,
        org_seq: 4,
        receipt_sha256: e.receipt_sha256,
        payload: JSON.parse(e.payload_text) as unknown,
      },
      checkpoint: checkpointFor(entries, 'org_cli', owner),
      inclusion_proof: {
        leaf_index: 4,
        tree_size: 7,
        hashes: inclusionProof(4, 7, (l, i) => nodes.get(`${l}/${i}`)!).map(toHex),
      },
    };
    const sharePath = join(dir, 'share.json');
    writeFileSync(sharePath, JSON.stringify(share));
    expect(cli('receipt', '--key', ownerVkey, sharePath)).toMatchObject({ code: 0 });
    writeFileSync(
      sharePath,
      JSON.stringify({
        ...share,
        inclusion_proof: {
          ...share.inclusion_proof,
          hashes: share.inclusion_proof.hashes.reverse(),
        },
      }),
    );
    expect(cli('receipt', '--key', ownerVkey, sharePath).stdout).toContain('inclusion_invalid');

    const oldPath = join(dir, 'old.ndjson');
    const newPath = join(dir, 'new.ndjson');
    writeFileSync(oldPath, exportLinesOf(entries.slice(0, 3), 'org_cli', owner).join('\n') + '\n');
    writeFileSync(newPath, exportLinesOf(entries, 'org_cli', owner).join('\n') + '\n');
    const extended = cli('consistency', '--key', ownerVkey, oldPath, newPath);
    expect(extended.code).toBe(0);
    expect(extended.stdout).toContain('nothing rewritten, only appended');
    const other = chainOf(7, 'org_cli', (seq, parent) => ({
      ...realisticPayload('org_cli', seq, parent),
      v: 2,
    }));
    writeFileSync(newPath, exportLinesOf(other, 'org_cli', owner).join('\n') + '\n');
    const forked = cli('consistency', '--key', ownerVkey, oldPath, newPath);
    expect(forked.code).toBe(1);
    expect(forked.stdout).toContain('not_extended');
    // Two checkpoints and a consistency proof.
    const oldCp = join(dir, 'old.checkpoint');
    const newCp = join(dir, 'new.checkpoint');
    const proofPath = join(dir, 'proof.json');
    writeFileSync(oldCp, checkpointFor(entries.slice(0, 3), 'org_cli', owner));
    writeFileSync(newCp, checkpointFor(entries, 'org_cli', owner));
    writeFileSync(
      proofPath,
      JSON.stringify({
        first: 3,
        second: 7,
        hashes: consistencyProof(3, 7, (l, i) => nodes.get(`${l}/${i}`)!).map(toHex),
      }),
    );
    expect(cli('consistency', '--key', ownerVkey, '--proof', proofPath, oldCp, newCp).code).toBe(0);
    expect(cli('consistency', '--key', ownerVkey, oldCp, newCp).code).toBe(1);
  });
});
