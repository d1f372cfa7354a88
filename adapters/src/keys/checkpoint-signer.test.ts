import { inspect } from 'node:util';
import { formatSkey, formatVkey, noteSigner, openNote } from '@runledger/verify/note';
import { parseKeysDocument, trustVkey } from '@runledger/verify';
import { signCheckpoint } from '@runledger/verify/ledger';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkpointSigner } from './checkpoint-signer.js';

const T0 = '2026-01-01T00:00:00.000Z';

describe('checkpointSigner (node:crypto Ed25519)', () => {
  it('signs exactly as the verify package’s signer for any seed, and its notes verify', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array(),
        (seed, message) => {
          const skey = formatSkey('ckpt.example', seed);
          const signer = checkpointSigner({ skey, notBefore: T0 });
          const reference = noteSigner('ckpt.example', seed);
          expect(signer.keyId).toBe(reference.keyId);
          expect(signer.publicKey).toEqual(reference.publicKey);
          // Ed25519 is deterministic: the same key and message give the same 64 bytes.
          expect(signer.sign(message)).toEqual(reference.sign(message));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('publishes the key in use first, then the retired ones, as a keys document verifiers accept', () => {
    const old = noteSigner('ckpt.example', new Uint8Array(32).fill(9));
    const signer = checkpointSigner({
      skey: formatSkey('ckpt.example', new Uint8Array(32).fill(3)),
      notBefore: '2026-02-01T00:00:00.000Z',
      retired: [
        {
          vkey: formatVkey(old.name, old.publicKey),
          not_before: T0,
          not_after: '2026-02-01T00:00:00.000Z',
        },
      ],
    });
    const keys = parseKeysDocument({ keys: signer.published });
    expect(keys.map((k) => [k.keyId, k.notAfter])).toEqual([
      [signer.keyId, null],
      [old.keyId, '2026-02-01T00:00:00.000Z'],
    ]);
    const note = signCheckpoint(
      { origin: 'ckpt.example/orgs/o', size: 0, rootHash: new Uint8Array(32), time: T0 },
      signer,
    );
    expect(() =>
      openNote(note, [trustVkey(formatVkey(signer.name, signer.publicKey))]),
    ).not.toThrow();
  });

  it('refuses a malformed key without repeating it, and never shows the seed when printed', () => {
    const skey = formatSkey('ckpt.example', new Uint8Array(32).fill(5));
    const secret = skey.split('+').slice(4).join('+');
    const broken = skey.replace('PRIVATE+KEY+ckpt.example+', 'PRIVATE+KEY+ckpt.example+00000000');
    let message = '';
    try {
      checkpointSigner({ skey: broken, notBefore: T0 });
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/key/);
    expect(message).not.toContain(secret);
    const signer = checkpointSigner({ skey, notBefore: T0 });
    expect(JSON.stringify(signer)).not.toContain(secret);
    expect(inspect(signer, { depth: 10 })).not.toContain(secret);
  });
});
