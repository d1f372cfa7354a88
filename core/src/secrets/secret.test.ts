import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunledgerError } from '../errors.js';
import type { Random } from '../ports/index.js';
import { constantTimeEqual, hashSecret, newSecret } from './secret.js';

const csprng: Random = { bytes: (n) => new Uint8Array(randomBytes(n)) };
const fixed = (byte: number): Random => ({ bytes: (n) => new Uint8Array(n).fill(byte) });

describe('newSecret', () => {
  it('encodes 32 random bytes as 43 base64url characters by default', () => {
    const secret = newSecret(fixed(0xff));
    expect(secret).toBe('_'.repeat(42) + '8');
    expect(Buffer.from(secret, 'base64url')).toEqual(Buffer.alloc(32, 0xff));
  });

  it('draws exactly the requested number of bytes and decodes back to them', () => {
    const secret = newSecret(csprng, 48);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(48);
  });

  it('refuses fewer than 256 bits', () => {
    expect(() => newSecret(csprng, 31)).toThrow(RunledgerError);
    expect(() => newSecret(csprng, 16.5)).toThrow(RunledgerError);
  });

  it('refuses a random source that returns fewer bytes than asked', () => {
    expect(() => newSecret({ bytes: () => new Uint8Array(8) })).toThrow(/8 of 32/);
  });

  it('gives different secrets on different draws', () => {
    expect(newSecret(csprng)).not.toBe(newSecret(csprng));
  });
});

describe('hashSecret', () => {
  it('is the SHA-256 hex of the UTF-8 text, as node:crypto computes it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(hashSecret(s)).toBe(createHash('sha256').update(s, 'utf8').digest('hex'));
      }),
    );
  });
});

describe('constantTimeEqual', () => {
  it('agrees with === on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(constantTimeEqual(a, b)).toBe(a === b);
        expect(constantTimeEqual(a, a)).toBe(true);
      }),
    );
  });

  it('tells apart a string from its own prefix and from a one-character change', () => {
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', 'a')).toBe(false);
    expect(constantTimeEqual('abcd', 'abce')).toBe(false);
    expect(constantTimeEqual('\u0000', '')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
