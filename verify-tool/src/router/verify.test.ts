import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  FIRST_PREV_CHECKSUM,
  formatRouterReceiptLine,
  routerReceiptChecksum,
  sealRouterReceipt,
  type RouterReceipt,
} from './receipt.js';
import { verifyRouterReceiptLines } from './verify.js';

function dayFile(n: number): RouterReceipt[] {
  const receipts: RouterReceipt[] = [];
  let prev = FIRST_PREV_CHECKSUM;
  for (let seq = 1; seq <= n; seq += 1) {
    const receipt = sealRouterReceipt(
      {
        receipt_id: `rr_${seq}`,
        type: seq % 2 === 0 ? 'compute_quote' : 'dataset_access',
        created_at: `2025-03-01T10:00:${String(seq).padStart(2, '0')}.000Z`,
        seq,
        subject: { member_id: 'mem_1', job_id: `job_${seq}` },
        ...(seq % 2 === 0 ? { amount: '12.50', currency: 'USD' } : {}),
      },
      prev,
    );
    receipts.push(receipt);
    prev = receipt.checksum_sha256;
  }
  return receipts;
}

const lines = (receipts: object[]) => receipts.map((r) => JSON.stringify(r));
const codes = async (text: string[]) =>
  (await verifyRouterReceiptLines(text, { fileName: '2025-03-01.receipts.jsonl' })).errors.map(
    (e) => `${e.line}:${e.code}`,
  );

describe('router receipts', () => {
  it('checksums the canonical line without its checksum (cross-checked with node:crypto)', () => {
    const [receipt] = dayFile(1);
    const { checksum_sha256, ...rest } = receipt!;
    const canonical =
      '{"created_at":"2025-03-01T10:00:01.000Z","prev_checksum_sha256":"' +
      '0'.repeat(64) +
      '","receipt_id":"rr_1","seq":1,"subject":{"job_id":"job_1","member_id":"mem_1"},"type":"dataset_access"}';
    expect(JSON.parse(formatRouterReceiptLine(receipt!))).toEqual({ ...rest, checksum_sha256 });
    expect(checksum_sha256).toBe(createHash('sha256').update(canonical, 'utf8').digest('hex'));
    expect(routerReceiptChecksum(receipt as unknown as Record<string, unknown>)).toBe(
      checksum_sha256,
    );
  });

  it('accepts an intact day file, with trailing blank lines', async () => {
    const result = await verifyRouterReceiptLines([...lines(dayFile(4)), ''], { fileName: 'f' });
    expect(result).toEqual({
      ok: true,
      files_checked: 1,
      receipts_checked: 4,
      errors: [],
      errors_omitted: 0,
      head_checksum_sha256: dayFile(4)[3]!.checksum_sha256,
    });
  });

  it('locates an edited amount on its line only', async () => {
    const receipts = dayFile(4);
    receipts[1] = { ...receipts[1]!, amount: '1.50' };
    const result = await verifyRouterReceiptLines(lines(receipts), {
      fileName: 'a.receipts.jsonl',
    });
    expect(result.errors).toEqual([
      expect.objectContaining({
        file: 'a.receipts.jsonl',
        line: 2,
        receipt_id: 'rr_2',
        code: 'checksum_mismatch',
      }),
    ]);
  });

  it('reports a deleted line as a broken chain and a seq mismatch', async () => {
    const receipts = dayFile(4);
    receipts.splice(1, 1);
    expect(await codes(lines(receipts))).toEqual([
      '2:chain_broken',
      '2:seq_mismatch',
      '3:seq_mismatch',
    ]);
  });

  it('requires 64 zeros before the first line', async () => {
    const receipts = dayFile(2);
    expect(await codes(lines(receipts.slice(1)))).toEqual(['1:chain_broken', '1:seq_mismatch']);
  });

  it('checks the amount format even when the checksum was recomputed', async () => {
    const [first, second] = dayFile(2);
    const resealed = sealRouterReceipt({ ...second!, amount: '12.5' }, first!.checksum_sha256);
    expect(await codes(lines([first!, resealed]))).toEqual(['2:bad_field']);
  });

  it('reports unreadable and blank lines in between and keeps going', async () => {
    const text = lines(dayFile(4));
    text[1] = '{"receipt_id":';
    text.splice(3, 0, '   ');
    expect(await codes(text)).toEqual(['2:bad_line', '4:bad_line', '5:seq_mismatch']);
  });
});
