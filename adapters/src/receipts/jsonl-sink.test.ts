import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyRouterReceiptLines } from '@runledger/verify';
import type { RouterReceiptInput } from '@runledger/core/ports';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJsonlReceiptSink, receiptFileName } from './jsonl-sink.js';

const receipt = (n: number, createdAt = '2026-11-22T10:00:00.000Z'): RouterReceiptInput => ({
  receipt_id: `rr_${n}`,
  type: 'dataset_access',
  created_at: createdAt,
  subject: { member_id: `mem_${n}`, dataset_id: 'ds_1' },
});

async function lines(dir: string, date: string): Promise<string[]> {
  const text = await readFile(join(dir, receiptFileName(date)), 'utf8');
  return text.split('\n').filter((line) => line !== '');
}

async function verifyDay(dir: string, date: string) {
  return verifyRouterReceiptLines(await lines(dir, date), { fileName: receiptFileName(date) });
}

describe('JSONL receipt sink', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-receipts-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('numbers, chains and checksums lines so the verifier accepts the file', async () => {
    const sink = await openJsonlReceiptSink(dir);
    const first = await sink.append(receipt(1));
    const second = await sink.append({
      ...receipt(2),
      type: 'compute_quote',
      amount: '12.50',
      currency: 'USD',
    });
    await sink.close();
    expect(first.seq).toBe(1);
    expect(first.prev_checksum_sha256).toBe('0'.repeat(64));
    expect(second.seq).toBe(2);
    expect(second.prev_checksum_sha256).toBe(first.checksum_sha256);
    expect((await lines(dir, '2026-11-22')).map((l) => JSON.parse(l))).toEqual([first, second]);
    expect((await verifyDay(dir, '2026-11-22')).ok).toBe(true);
  });

  it('acknowledges concurrent appends in one valid chain, each promise with its own line', async () => {
    const sink = await openJsonlReceiptSink(dir);
    const acknowledged = await Promise.all(
      Array.from({ length: 100 }, (_, i) => sink.append(receipt(i))),
    );
    await sink.close();
    const written = (await lines(dir, '2026-11-22')).map((l) => JSON.parse(l) as { seq: number });
    expect(written).toHaveLength(100);
    expect(written.map((l) => l.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect([...acknowledged].sort((a, b) => a.seq - b.seq)).toEqual(written);
    expect((await verifyDay(dir, '2026-11-22')).ok).toBe(true);
  });

  it('resumes the chain after a restart', async () => {
    const before = await openJsonlReceiptSink(dir);
    const last = await before.append(receipt(1));
    await before.close();
    const after = await openJsonlReceiptSink(dir);
    const next = await after.append(receipt(2));
    await after.close();
    expect(next.seq).toBe(2);
    expect(next.prev_checksum_sha256).toBe(last.checksum_sha256);
    expect((await verifyDay(dir, '2026-11-22')).ok).toBe(true);
  });

  it('cuts off a torn final line left by a crash and continues from the last complete one', async () => {
    const before = await openJsonlReceiptSink(dir);
    const last = await before.append(receipt(1));
    await before.close();
    await appendFile(join(dir, receiptFileName('2026-11-22')), '{"receipt_id":"rr_torn","ty');
    const after = await openJsonlReceiptSink(dir);
    const next = await after.append(receipt(2));
    await after.close();
    expect(next.prev_checksum_sha256).toBe(last.checksum_sha256);
    expect(await lines(dir, '2026-11-22')).toHaveLength(2);
    expect((await verifyDay(dir, '2026-11-22')).ok).toBe(true);
  });

  it('starts a new file, and a new chain, for each UTC date', async () => {
    const sink = await openJsonlReceiptSink(dir);
    await sink.append(receipt(1, '2026-11-22T23:59:59.999Z'));
    const nextDay = await sink.append(receipt(2, '2026-11-23T00:00:00.000Z'));
    await sink.close();
    expect(nextDay.seq).toBe(1);
    expect(nextDay.prev_checksum_sha256).toBe('0'.repeat(64));
    expect((await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort()).toEqual([
      '2026-11-22.receipts.jsonl',
      '2026-11-23.receipts.jsonl',
    ]);
    expect((await verifyDay(dir, '2026-11-23')).ok).toBe(true);
  });

  it('refuses a second writer on the same directory while the first is open', async () => {
    const sink = await openJsonlReceiptSink(dir);
    await expect(openJsonlReceiptSink(dir)).rejects.toThrow(/another (process|writer)/);
    await sink.close();
    const again = await openJsonlReceiptSink(dir);
    await again.close();
  });
});
