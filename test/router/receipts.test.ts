import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hashSecret } from '@runledger/core/adapter';
import { verifyRouterReceiptFiles } from '@runledger/verify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  lease,
  newJob,
  newMember,
  newWorker,
  receiptFiles,
  startRouterWorld,
  type RouterWorld,
} from '../helpers/router.js';

/** Every file under dir, recursively (the SQLite file, its WAL, the receipt files, ...). */
async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('router receipts and secrets on disk', () => {
  let world: RouterWorld;
  beforeEach(async () => {
    world = await startRouterWorld();
  });
  afterEach(() => world.close());

  it('keeps no plaintext worker or lease token in the database or the receipt files', async () => {
    const { api } = world;
    const memberId = await newMember(api);
    const tokens: string[] = [];
    for (const name of ['w1', 'w2']) {
      const worker = await newWorker(api, 'gpu_a_96gb', name);
      tokens.push(worker.worker_token);
      const { job_id: jobId } = await newJob(api, memberId);
      const leased = await lease(api, worker.worker_token);
      tokens.push(leased!.lease_token);
      await api('POST', `/workers/jobs/${jobId}/accept`, {
        token: worker.worker_token,
        body: { lease_token: leased!.lease_token },
      });
    }
    // A second lease of a job (after expiry) is a fresh token too.
    world.server.clock.advance(601_000);
    expect(await world.server.sweepLeases()).toBe(2);
    const again = await lease(api, tokens[0]!);
    tokens.push(again!.lease_token);
    expect(new Set(tokens).size).toBe(tokens.length);

    const files = await allFiles(world.server.dataDir);
    expect(files.some((f) => f.endsWith('.sqlite'))).toBe(true);
    expect(files.some((f) => f.endsWith('.receipts.jsonl'))).toBe(true);
    for (const file of files) {
      // An anchor's temp file can be renamed over the anchor after the listing: anchors are written
      // behind the appends, and the anchor itself is in the listing too.
      const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' && file.endsWith('.anchor.partial')) return Buffer.alloc(0);
        throw error;
      });
      for (const token of tokens) {
        expect([file, bytes.includes(Buffer.from(token))]).toEqual([file, false]);
      }
    }
    // The hashes are what is stored: proves the scan looked at the right bytes.
    const database = Buffer.concat(
      await Promise.all(files.filter((f) => f.includes('.sqlite')).map((f) => readFile(f))),
    );
    expect(database.includes(Buffer.from(hashSecret(tokens[0]!)))).toBe(true);
  });

  it('catches one changed byte in a receipt line and names that line', async () => {
    const memberId = await newMember(world.api);
    await world.api('POST', '/compute/quote', {
      body: { member_id: memberId, node_class: 'gpu_a_96gb', hours: 2.5 },
    });
    await newJob(world.api, memberId);
    const [file] = await receiptFiles(world.server.dataDir);
    // The anchor is written behind the appends: wait until it has caught up with the file.
    await vi.waitFor(
      async () =>
        expect(await verifyRouterReceiptFiles(file!)).toMatchObject({
          ok: true,
          receipts_checked: 3,
        }),
      { timeout: 20_000, interval: 50 },
    );

    const text = await readFile(file!, 'utf8');
    const lines = text.split('\n');
    const quoteLine = lines[1]!;
    expect(quoteLine).toContain('"12.50"');
    lines[1] = quoteLine.replace('"12.50"', '"12.60"');
    await writeFile(file!, lines.join('\n'));

    const result = await verifyRouterReceiptFiles(file!);
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([
      expect.objectContaining({
        file: file!,
        line: 2,
        receipt_id: JSON.parse(quoteLine).receipt_id,
        code: 'checksum_mismatch',
      }),
    ]);
  });
});
