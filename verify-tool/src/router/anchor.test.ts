import { describe, expect, it } from 'vitest';
import { formatVkey, noteSigner } from '../note/keys.js';
import { trustVkey } from '../note/keyring.js';
import { dayFileWithAnchor } from '../testing/router.js';
import { checkRouterAnchor, routerAnchorOrigin } from './anchor.js';
import { verifyRouterReceiptLines } from './verify.js';

const signer = noteSigner('runledger.example', new Uint8Array(32).fill(3));
const keys = [trustVkey(formatVkey(signer.name, signer.publicKey))];

async function check(lines: string[], name: string, anchor: string | undefined, withKeys = true) {
  const result = await verifyRouterReceiptLines(lines, { fileName: name });
  return checkRouterAnchor(
    anchor,
    { path: name, name, lines: result.receipts_checked, headChecksum: result.head_checksum_sha256 },
    withKeys ? keys : undefined,
  );
}

describe('router day file anchors', () => {
  const day = dayFileWithAnchor('2025-03-01', 'inst-a', 6, signer);

  it('names the instance and day in the origin', () => {
    expect(routerAnchorOrigin('h', day.name)).toBe('h/router/inst-a/2025-03-01');
    expect(routerAnchorOrigin('h', '2025-03-01.receipts.jsonl')).toBe('h/router/2025-03-01');
  });

  it('accepts the file it anchors, signed by the key', async () => {
    expect(await check(day.lines, day.name, day.anchor)).toMatchObject({
      errors: [],
      authorship: { status: 'verified' },
    });
    expect((await check(day.lines, day.name, day.anchor, false)).authorship.status).toBe(
      'not_checked',
    );
  });

  it('catches a file cut at every line boundary', async () => {
    for (let keep = 0; keep < day.lines.length; keep += 1) {
      const found = await check(day.lines.slice(0, keep), day.name, day.anchor);
      expect(found.errors.map((e) => e.code)).toEqual(['anchor_mismatch']);
    }
  });

  it('catches an anchor moved to another instance or day, rewritten without the key, or missing', async () => {
    const other = dayFileWithAnchor('2025-03-01', 'inst-b', 6, signer);
    expect((await check(day.lines, day.name, other.anchor)).errors.map((e) => e.code)).toContain(
      'anchor_mismatch',
    );
    const forger = noteSigner('runledger.example', new Uint8Array(32).fill(4));
    const cut = dayFileWithAnchor('2025-03-01', 'inst-a', 4, forger);
    expect((await check(cut.lines, cut.name, cut.anchor)).errors.map((e) => e.code)).toEqual([
      'signature_invalid',
    ]);
    expect((await check(day.lines, day.name, undefined)).errors.map((e) => e.code)).toEqual([
      'anchor_missing',
    ]);
    expect((await check(day.lines, day.name, 'garbage')).errors.map((e) => e.code)).toEqual([
      'bad_anchor',
    ]);
  });
});
