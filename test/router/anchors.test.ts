import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openJsonlReceiptSink } from '@runledger/adapters';
import type { RouterReceiptInput } from '@runledger/core/ports';
import { testCheckpointSigner } from '@runledger/core/testing';
import { formatVkey } from '@runledger/verify/note';
import { trustVkey, verifyRouterReceiptFiles } from '@runledger/verify';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VERIFY, runNode } from '../cli/run-cli.js';

const signer = testCheckpointSigner('runledger.test');
const vkey = formatVkey(signer.name, signer.publicKey);
const keys = [trustVkey(vkey)];
const receipt = (n: number, day = '2026-11-22'): RouterReceiptInput => ({
  receipt_id: `rr_${n}`,
  type: 'dataset_access',
  created_at: `${day}T10:00:00.000Z`,
  subject: { member_id: `mem_${n}`, dataset_id: 'ds_1' },
});
const anchoring = (instance: string | null) => ({
  instance,
  signer,
  host: 'runledger.test',
  now: () => new Date('2026-11-22T12:00:00.000Z'),
});

/** Writes `n` receipts as `instance` (each instance is its own process in production: sequential here). */
async function write(dir: string, instance: string | null, from: number, n: number, day?: string) {
  const sink = await openJsonlReceiptSink(dir, anchoring(instance));
  await Promise.all(Array.from({ length: n }, (_, i) => sink.append(receipt(from + i, day))));
  await sink.close();
}

describe('anchored router day files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-anchors-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('names each file for its instance and verifies a folder holding two instances’ files, with the key', async () => {
    await write(dir, 'eu-1', 0, 5);
    await write(dir, 'us-2', 100, 3);
    await write(dir, 'eu-1', 5, 2, '2026-11-23');
    expect((await readdir(dir)).filter((n) => !n.startsWith('.')).sort()).toEqual([
      '2026-11-22.eu-1.receipts.jsonl',
      '2026-11-22.eu-1.receipts.jsonl.anchor',
      '2026-11-22.us-2.receipts.jsonl',
      '2026-11-22.us-2.receipts.jsonl.anchor',
      '2026-11-23.eu-1.receipts.jsonl',
      '2026-11-23.eu-1.receipts.jsonl.anchor',
    ]);
    const result = await verifyRouterReceiptFiles(dir, { keys });
    expect(result.ok).toBe(true);
    const cli = await runNode(VERIFY, ['receipts', '--key', vkey, dir]);
    expect(cli.code).toBe(0);
  });

  it('fails when a file is cut at any line boundary or loses any one line', async () => {
    await write(dir, 'eu-1', 0, 6);
    const path = join(dir, '2026-11-22.eu-1.receipts.jsonl');
    const original = await readFile(path, 'utf8');
    const lines = original.split('\n').filter((l) => l !== '');
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: lines.length - 1 }), fc.boolean(), async (at, cut) => {
        const kept = cut ? lines.slice(0, at) : lines.filter((_, i) => i !== at);
        await writeFile(path, kept.map((l) => `${l}\n`).join(''));
        const result = await verifyRouterReceiptFiles(dir, { keys });
        expect(result.ok).toBe(false);
      }),
      { numRuns: 12 },
    );
    await writeFile(
      path,
      lines
        .slice(0, 4)
        .map((l) => `${l}\n`)
        .join(''),
    );
    const cli = await runNode(VERIFY, ['receipts', '--key', vkey, dir]);
    expect(cli.code).toBe(1);
    expect(cli.stdout + cli.stderr).toMatch(/anchor_mismatch/);
    await writeFile(path, original);
    expect((await verifyRouterReceiptFiles(dir, { keys })).ok).toBe(true);
  });

  it('re-signs the anchor of what is on disk when it reopens a file (a crash between lines and anchor)', async () => {
    await write(dir, 'eu-1', 0, 3);
    const anchorPath = join(dir, '2026-11-22.eu-1.receipts.jsonl.anchor');
    const early = await readFile(anchorPath, 'utf8');
    await write(dir, 'eu-1', 3, 2);
    // Simulate the crash: the two later lines are on disk, the anchor still says 3.
    await writeFile(anchorPath, early);
    expect((await verifyRouterReceiptFiles(dir, { keys })).ok).toBe(false);
    await write(dir, 'eu-1', 5, 0);
    expect((await verifyRouterReceiptFiles(dir, { keys })).ok).toBe(true);
  });

  it('names the file YYYY-MM-DD.receipts.jsonl without an instance, anchored and re-signed the same way', async () => {
    await write(dir, null, 0, 3);
    const anchorPath = join(dir, '2026-11-22.receipts.jsonl.anchor');
    expect((await readdir(dir)).filter((n) => !n.startsWith('.')).sort()).toEqual([
      '2026-11-22.receipts.jsonl',
      '2026-11-22.receipts.jsonl.anchor',
    ]);
    expect(await readFile(anchorPath, 'utf8')).toMatch(/^runledger\.test\/router\/2026-11-22\n3\n/);
    const result = await verifyRouterReceiptFiles(dir, { keys });
    expect(result).toMatchObject({ ok: true, authorship: 'verified', unanchored_files: [] });
    const early = await readFile(anchorPath, 'utf8');
    await write(dir, null, 3, 2);
    await writeFile(anchorPath, early);
    expect((await verifyRouterReceiptFiles(dir, { keys })).ok).toBe(false);
    await write(dir, null, 5, 0);
    expect((await verifyRouterReceiptFiles(dir, { keys })).ok).toBe(true);
  });

  it('verifies a folder mixing files from before anchors, named per instance and named by date only', async () => {
    // An early release: unnamed, no anchor. Then an instance-named release. Then the default.
    const early = await openJsonlReceiptSink(dir);
    await early.append(receipt(0, '2026-11-20'));
    await early.close();
    await write(dir, 'eu-1', 10, 2, '2026-11-21');
    await write(dir, null, 20, 2, '2026-11-22');
    await write(dir, 'us-2', 30, 1, '2026-11-22');
    const result = await verifyRouterReceiptFiles(dir, { keys });
    expect(result.errors).toEqual([]);
    expect(result).toMatchObject({ ok: true, files_checked: 4, receipts_checked: 6 });
    expect(result.unanchored_files).toEqual([join(dir, '2026-11-20.receipts.jsonl')]);
    // The early file is not re-signed when the default instance reopens the folder.
    await write(dir, null, 40, 0, '2026-11-22');
    expect((await readdir(dir)).includes('2026-11-20.receipts.jsonl.anchor')).toBe(false);
    const cli = await runNode(VERIFY, ['receipts', '--key', vkey, dir]);
    expect(cli.stdout + cli.stderr).toMatch(/UNANCHORED: 1 files/);
    expect(cli.code).toBe(0);
  });

  it('fails an unnamed file dated after the first anchored one when its anchor is gone', async () => {
    await write(dir, 'eu-1', 0, 1, '2026-11-21');
    await write(dir, null, 10, 2, '2026-11-22');
    await rm(join(dir, '2026-11-22.receipts.jsonl.anchor'));
    const result = await verifyRouterReceiptFiles(dir, { keys });
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => e.code)).toEqual(['anchor_missing']);
    const cli = await runNode(VERIFY, ['receipts', '--key', vkey, dir]);
    expect(cli.code).toBe(1);
  });
});
