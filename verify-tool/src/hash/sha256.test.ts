import { createHash } from 'node:crypto';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leafHash } from '../merkle/hash.js';
import { receiptLeaf, receiptLeafHash } from '../ledger/receipt-tree.js';
import { toHex } from './hex.js';
import { sha256, sha256Pure } from './sha256.js';

describe('sha256', () => {
  it('gives the known answers of FIPS 180-2 (empty, "abc", two blocks)', () => {
    const answers: [string, string][] = [
      ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
      ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
      [
        'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
        '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
      ],
    ];
    for (const [text, hex] of answers) {
      const bytes = new TextEncoder().encode(text);
      expect(toHex(sha256(bytes))).toBe(hex);
      expect(toHex(sha256Pure(bytes))).toBe(hex);
    }
  });

  it('agrees with node:crypto and @noble/hashes on every length up to 300 bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (data) => {
        const expected = createHash('sha256').update(data).digest('hex');
        expect(toHex(sha256(data))).toBe(expected);
        expect(toHex(nobleSha256(data))).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('hashes a string as its UTF-8 bytes, as node:crypto does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (text) => {
        const expected = createHash('sha256').update(text, 'utf8').digest('hex');
        expect(toHex(sha256(text))).toBe(expected);
        expect(toHex(sha256Pure(text))).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('receiptLeafHash', () => {
  it('is leafHash(receiptLeaf(x)) for hashes, near-hashes and anything else', () => {
    const hex = fc.stringMatching(/^[0-9a-f]{64}$/);
    const almost = fc.stringMatching(/^[0-9a-fA-Fg ]{62,66}$/);
    fc.assert(
      fc.property(fc.oneof(hex, almost, fc.string()), (text) => {
        expect(toHex(receiptLeafHash(text))).toBe(toHex(leafHash(receiptLeaf(text))));
      }),
      { numRuns: 1000 },
    );
    expect(toHex(receiptLeafHash(42))).toBe(toHex(leafHash(new Uint8Array(32))));
  });
});
