import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHex } from '../hash/hex.js';
import { formatVkey, noteSigner } from '../note/keys.js';
import { parseTlogProof } from '../tlog-proof/format.js';
import { chainOf, checkpointFor, exportLinesOf } from '../testing/ledger.js';
import { cosign, testWitness, tlogProofFor } from '../testing/witness.js';

const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(PACKAGE, 'dist/cli/main.js');
const owner = noteSigner('runledger.example', new Uint8Array(32).fill(5));
const ownerVkey = formatVkey(owner.name, owner.publicKey);
const w1 = testWitness('w1.example', 1);
const w2 = testWitness('w2.example', 2);
const stranger = testWitness('w3.example', 3);
let dir: string;

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(() => {
  execFileSync('npx', ['tsc', '-b', PACKAGE], { stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'runledger-verify-witness-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const both = ['--witness', w1.vkey, '--witness', w2.vkey, '--witness-threshold', '2'];

describe('runledger-verify --witness', () => {
  it('accepts an export whose checkpoint both witnesses cosigned, and rejects one it does not know', () => {
    const entries = chainOf(6, 'org_w');
    const checkpoint = cosign(checkpointFor(entries, 'org_w', owner), [w1.signer, w2.signer]);
    const path = join(dir, 'cosigned.ndjson');
    writeFileSync(path, exportLinesOf(entries, 'org_w', { checkpoint }).join('\n') + '\n');
    const ok = cli('--key', ownerVkey, ...both, path);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('WITNESSED: cosigned by w1.example');
    const unknown = cli('--key', ownerVkey, '--witness', w1.vkey, '--witness', stranger.vkey, path);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain('witness_quorum');
    expect(
      cli('--key', ownerVkey, '--witness', stranger.vkey, '--witness-threshold', '1', path).code,
    ).toBe(1);
  });

  it('checks a share JSON the same way', () => {
    const shareWith = (signers: Parameters<typeof cosign>[1]) => {
      const { share, text } = tlogProofFor(5, 2, owner, signers);
      const proof = parseTlogProof(text);
      return {
        ...(share as object),
        checkpoint: proof.checkpoint,
        inclusion_proof: { leaf_index: 2, tree_size: 5, hashes: proof.hashes.map(toHex) },
      };
    };
    const path = join(dir, 'share.json');
    writeFileSync(path, JSON.stringify(shareWith([w1.signer, w2.signer])));
    expect(cli('receipt', '--key', ownerVkey, ...both, path).code).toBe(0);
    writeFileSync(path, JSON.stringify(shareWith([w1.signer])));
    const one = cli('receipt', '--key', ownerVkey, ...both, path);
    expect(one.code).toBe(1);
    expect(one.stdout).toContain('WITNESSES FAILED: 1 of the required 2');
  });

  it('verifies a tlog-proof file with --share, and a changed byte fails', () => {
    const { text, share } = tlogProofFor(40, 17, owner, [w1.signer, w2.signer]);
    const file = join(dir, 'r.tlog-proof');
    const shareFile = join(dir, 'share.json');
    writeFileSync(file, text);
    writeFileSync(shareFile, JSON.stringify(share));
    const ok = cli('tlog-proof', '--key', ownerVkey, ...both, '--share', shareFile, file);
    expect(ok).toMatchObject({ code: 0 });
    expect(ok.stdout).toContain('OK: the receipt is in the checkpointed tree');
    const bytes = readFileSync(file);
    const at = bytes.indexOf('index') + 6;
    bytes[at] = bytes[at]! ^ 1;
    writeFileSync(file, bytes);
    expect(cli('tlog-proof', '--key', ownerVkey, ...both, file).code).toBe(1);
  });

  it('exits 2 on a bad witness key or threshold', () => {
    const file = join(dir, 'any.tlog-proof');
    writeFileSync(file, tlogProofFor(3, 0, owner, []).text);
    expect(cli('tlog-proof', '--witness', ownerVkey, file)).toMatchObject({ code: 2 });
    expect(cli('tlog-proof', '--witness', w1.vkey, '--witness-threshold', '2', file).code).toBe(2);
    expect(cli('tlog-proof', '--witness-threshold', '1', file).code).toBe(2);
    expect(cli('receipts', '--witness', w1.vkey, dir).code).toBe(2);
  });
});
