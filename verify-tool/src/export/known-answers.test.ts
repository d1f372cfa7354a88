import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verifyExportFile } from '../io/verify-files.js';

const VECTORS = fileURLToPath(new URL('../../vectors/', import.meta.url));

interface ChainVector {
  file: string;
  org_id: string;
  head_sha256: string;
  receipts: { receipt_id: string; org_seq: number; parent_hash: string; receipt_sha256: string }[];
}

const chain = (
  JSON.parse(readFileSync(`${VECTORS}known-answers.json`, 'utf8')) as { chain: ChainVector }
).chain;

describe('known-answer export', () => {
  it('verifies the fixed 3-receipt export in strict mode', async () => {
    const result = await verifyExportFile(`${VECTORS}${chain.file}`, { strict: true });
    expect(result).toMatchObject({ ok: true, receipts_checked: 3, errors: [] });
    expect(result.header).toMatchObject({ org_id: chain.org_id, head_sha256: chain.head_sha256 });
  });

  it('carries the expected ids and hashes on each line', () => {
    const lines = readFileSync(`${VECTORS}${chain.file}`, 'utf8').trimEnd().split('\n').slice(1);
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toMatchObject(
      chain.receipts,
    );
  });
});
