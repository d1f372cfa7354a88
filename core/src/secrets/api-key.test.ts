import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Random } from '../ports/index.js';
import { formatApiKey, newApiKey, parseApiKey } from './api-key.js';
import { hashSecret } from './secret.js';

const csprng: Random = { bytes: (n) => new Uint8Array(randomBytes(n)) };
const secretArb = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((b) => Buffer.from(b).toString('base64url'));
const keyIdArb = fc.stringMatching(/^[a-z2-7]{26}$/).map((s) => `key_${s}`);
const KEY_ID = 'key_abcdefghijklmnopqrstuvwxyz';

describe('API keys', () => {
  it('formats rlk_<key_id>_<secret> and parses it back, even when the secret contains underscores', () => {
    fc.assert(
      fc.property(keyIdArb, secretArb, (keyId, secret) => {
        const key = formatApiKey(keyId, secret);
        expect(key.startsWith(`rlk_${keyId}_`)).toBe(true);
        expect(parseApiKey(key)).toEqual({ key_id: keyId, secret });
      }),
    );
    const underscored = '_'.repeat(43);
    expect(parseApiKey(`rlk_${KEY_ID}_${underscored}`)).toEqual({
      key_id: KEY_ID,
      secret: underscored,
    });
  });

  it('mints a key whose parts, hash and display prefix agree, and whose prefix reveals no secret', () => {
    const k = newApiKey(KEY_ID, csprng);
    expect(k.key).toBe(`rlk_${k.key_id}_${k.secret}`);
    expect(k.secret_hash).toBe(hashSecret(k.secret));
    expect(k.prefix).toBe(k.key.slice(0, 16));
    expect(KEY_ID.startsWith(k.prefix.slice(4))).toBe(true);
    expect(parseApiKey(k.key)).toEqual({ key_id: k.key_id, secret: k.secret });
  });

  it.each([
    ['an empty string', ''],
    ['a non-string', 42],
    ['another scheme', `sk_${KEY_ID}_${'a'.repeat(43)}`],
    ['no separator', `rlk_${KEY_ID}${'a'.repeat(43)}`],
    ['an upper-case key id', `rlk_${KEY_ID.toUpperCase()}_${'a'.repeat(43)}`],
    ['a short key id', `rlk_key_abc_${'a'.repeat(43)}`],
    ['a short secret', `rlk_${KEY_ID}_${'a'.repeat(42)}`],
    ['a secret with padding', `rlk_${KEY_ID}_${'a'.repeat(43)}=`],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.e30.sig'],
  ])('rejects %s', (_name, text) => {
    expect(parseApiKey(text)).toBeNull();
  });
});
