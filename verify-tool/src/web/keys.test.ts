import { describe, expect, it } from 'vitest';
import { formatVkey, noteSigner, verifierOf } from '../note/keys.js';
import { publishedKey } from '../note/keyring.js';
import { parseKeyText } from './keys.js';

const a = noteSigner('runledger.example', new Uint8Array(32).fill(1));
const b = noteSigner('runledger.example', new Uint8Array(32).fill(2));
const vkey = (s: typeof a) => formatVkey(s.name, s.publicKey);

describe('parseKeyText', () => {
  it('reads nothing, vkeys separated by white space, or a keys document', () => {
    expect(parseKeyText('  \n')).toEqual({ status: 'none' });
    const two = parseKeyText(`${vkey(a)}\n  ${vkey(b)} `);
    expect(two.status === 'keys' && two.keys.map((k) => k.publicKey)).toEqual([
      a.publicKey,
      b.publicKey,
    ]);
    const doc = JSON.stringify({
      keys: [publishedKey(verifierOf(a), '2025-01-01T00:00:00.000Z', null)],
    });
    expect(parseKeyText(doc)).toMatchObject({
      status: 'keys',
      keys: [{ notBefore: '2025-01-01T00:00:00.000Z', notAfter: null }],
    });
  });

  it.each([
    ['a malformed vkey', 'runledger.example+00000000+AAAA'],
    ['a vkey with a wrong key id', vkey(a).replace(/\+[0-9a-f]{8}\+/, '+00000000+')],
    ['JSON that is not a keys document', '{"keys": 3}'],
    ['JSON that does not parse', '{"keys": ['],
  ])('says why it cannot read %s', (_what, text) => {
    expect(parseKeyText(text)).toMatchObject({
      status: 'bad',
      message: expect.stringMatching(/^the key cannot be read: /) as string,
    });
  });
});
