import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Random } from '../ports/index.js';
import { apiKeyPrefix, formatApiKey, newApiKey, parseApiKey } from './api-key.js';
import { hashSecret } from './secret.js';

const csprng: Random = { bytes: (n) => new Uint8Array(randomBytes(n)) };
const secretArb = fc
  .uint8Array({ minLength: 32, maxLength: 64 })
  .map((b) => Buffer.from(b).toString('base64url'));
const keyIdArb = fc
  .uint8Array({ minLength: 8, maxLength: 8 })
  .map((b) => Buffer.from(b).toString('hex'));

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
    expect(parseApiKey(`rlk_0123456789abcdef_${underscored}`)).toEqual({
      key_id: '0123456789abcdef',
      secret: underscored,
    });
  });

  it('mints a key whose parts, hash and display prefix agree', () => {
    const k = newApiKey(csprng);
    expect(k.key).toBe(`rlk_${k.key_id}_${k.secret}`);
    expect(k.key_hash).toBe(hashSecret(k.key));
    expect(k.prefix).toBe(apiKeyPrefix(k.key_id));
    expect(k.prefix).toBe(`rlk_${k.key_id}`);
    expect(parseApiKey(k.key)).toEqual({ key_id: k.key_id, secret: k.secret });
  });

  it.each([
    ['an empty string', ''],
    ['another scheme', 'sk_0123456789abcdef_' + 'a'.repeat(43)],
    ['no separator', 'rlk_0123456789abcdef' + 'a'.repeat(43)],
    ['an upper-case key id', 'rlk_0123456789ABCDEF_' + 'a'.repeat(43)],
    ['a short key id', 'rlk_0123_' + 'a'.repeat(43)],
    ['a short secret', 'rlk_0123456789abcdef_' + 'a'.repeat(42)],
    ['a secret with padding', 'rlk_0123456789abcdef_' + 'a'.repeat(43) + '='],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.e30.sig'],
  ])('rejects %s', (_name, text) => {
    expect(parseApiKey(text)).toBeNull();
  });
});
