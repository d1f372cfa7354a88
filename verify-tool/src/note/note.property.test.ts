import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256, sha256Hex, sha256HexPure, sha256Pure } from '../hash/sha256.js';
import { formatCheckpoint, parseCheckpoint, timeExtension } from './checkpoint.js';
import { ed25519Impl, ed25519Pure } from './ed25519.js';
import { NoteError } from './errors.js';
import { noteSigner, parseVkey, formatVkey, verifierOf } from './keys.js';
import { keysValidAt, parseKeysDocument, publishedKey, trustVkey } from './keyring.js';
import { openNote, signNote } from './note.js';

const signer = noteSigner('runledger.example/log', new Uint8Array(32).fill(7));
const other = noteSigner('runledger.example/log', new Uint8Array(32).fill(8));
const encoder = new TextEncoder();

const checkpointArb = fc.record({
  origin: fc.stringMatching(/^[a-z0-9.]{1,20}\/orgs\/[a-z0-9_]{1,12}$/),
  size: fc.nat(),
  rootHash: fc.uint8Array({ minLength: 32, maxLength: 32 }),
  extensions: fc.constant([timeExtension('2026-01-02T03:04:05.000Z')]),
});

/** Opens a checkpoint note as the verifier does; true only when it opens and parses unchanged. */
function accepted(note: Uint8Array, expected: string): boolean {
  try {
    return (
      openNote(note, [verifierOf(signer)]).text === expected && parseCheckpoint(expected) !== null
    );
  } catch (error) {
    if (error instanceof NoteError) return false;
    throw error;
  }
}

describe('signed checkpoints', () => {
  it('round-trip: format, sign, open, parse', () => {
    fc.assert(
      fc.property(checkpointArb, (cp) => {
        const text = formatCheckpoint(cp);
        const note = signNote(text, [signer]);
        const opened = openNote(note, [parseVkey(formatVkey(signer.name, signer.publicKey))]);
        expect(parseCheckpoint(opened.text)).toEqual(cp);
      }),
    );
  });

  it('rejects every single-byte change to a signed checkpoint (text, signature line or signature)', () => {
    fc.assert(
      fc.property(checkpointArb, fc.nat(), fc.integer({ min: 1, max: 255 }), (cp, at, xor) => {
        const text = formatCheckpoint(cp);
        const bytes = encoder.encode(signNote(text, [signer]));
        expect(accepted(bytes, text)).toBe(true);
        const i = at % bytes.length;
        const changed = Uint8Array.from(bytes);
        changed[i] = (changed[i] as number) ^ xor;
        expect(accepted(changed, text)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a note signed by another key under the same name', () => {
    const note = signNote(
      formatCheckpoint({
        origin: 'a/orgs/b',
        size: 1,
        rootHash: new Uint8Array(32),
        extensions: [],
      }),
      [other],
    );
    expect(() => openNote(note, [verifierOf(signer)])).toThrow(/no trusted key/);
  });
});

describe('keys document', () => {
  const doc = {
    keys: [
      publishedKey(other, '2025-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
      publishedKey(signer, '2026-01-01T00:00:00.000Z'),
    ],
  };

  it('selects the key valid at a time; a bare vkey is valid at any time', () => {
    const keys = parseKeysDocument(JSON.parse(JSON.stringify(doc)));
    expect(keysValidAt(keys, '2025-06-01T00:00:00.000Z').map((k) => k.keyId)).toEqual([
      other.keyId,
    ]);
    expect(keysValidAt(keys, '2026-06-01T00:00:00.000Z').map((k) => k.keyId)).toEqual([
      signer.keyId,
    ]);
    expect(keysValidAt(keys, '2024-06-01T00:00:00.000Z')).toEqual([]);
    expect(keysValidAt(keys, undefined)).toEqual([]);
    expect(keysValidAt([trustVkey(doc.keys[0]!.vkey)], undefined)).toHaveLength(1);
  });

  it('refuses an entry whose fields disagree with its vkey', () => {
    const forged = { keys: [{ ...doc.keys[0]!, public_key: doc.keys[1]!.public_key }] };
    expect(() => parseKeysDocument(forged)).toThrow(NoteError);
    expect(() => parseKeysDocument({ keys: [{ ...doc.keys[0]!, not_before: 'soon' }] })).toThrow(
      NoteError,
    );
    expect(() => parseKeysDocument([])).toThrow(NoteError);
  });
});

describe('platform primitives agree with the pure-JS ones a browser uses', () => {
  it('SHA-256 and Ed25519', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.string(),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (bytes, text, seed) => {
          expect(sha256(bytes)).toEqual(sha256Pure(bytes));
          expect(sha256Hex(text)).toBe(sha256HexPure(text));
          const sig = ed25519Impl.sign(seed, bytes);
          expect(ed25519Pure.sign(seed, bytes)).toEqual(sig);
          expect(ed25519Pure.publicKey(seed)).toEqual(ed25519Impl.publicKey(seed));
          expect(ed25519Pure.verify(ed25519Impl.publicKey(seed), bytes, sig)).toBe(true);
          const bad = Uint8Array.from(sig);
          bad[0] = (bad[0] as number) ^ 1;
          expect(ed25519Impl.verify(ed25519Impl.publicKey(seed), bytes, bad)).toBe(false);
          expect(ed25519Pure.verify(ed25519Impl.publicKey(seed), bytes, bad)).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });
});
