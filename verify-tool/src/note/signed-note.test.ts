import { describe, expect, it } from 'vitest';
import { leafHash } from '../merkle/hash.js';
import { SHARED_VECTORS, hex, sharedVector } from '../testing/vectors.js';
import { base64Decode, base64Encode } from './base64.js';
import { parseCheckpoint } from './checkpoint.js';
import { ed25519Impl, ed25519Pure } from './ed25519.js';
import { NoteError } from './errors.js';
import { keyIdHex, parseSkey, parseVkey } from './keys.js';
import { openNote, parseNote, signNote } from './note.js';

interface Vectors {
  keys: {
    name: string;
    vkey: string;
    key_id_hex: string;
    public_key_base64: string;
    skey_if_public_in_test: string | null;
    skey_derived?: string;
  }[];
  invalid_vkeys: { vkey: string }[];
  invalid_skeys: { skey: string }[];
  notes: NoteCase[];
  sign: {
    id: string;
    skey: string;
    text: string;
    existing_signed_text?: string;
    expected_signed_text: string;
  }[];
  checkpoints: (NoteCase & CheckpointFields & { expected_origin?: string })[];
  checkpoint_bodies: (CheckpointFields & {
    id: string;
    text: string;
    expect: string;
    expected_origin?: string;
    root_hash_is_leaf_hash_of_utf8?: string;
  })[];
}
interface NoteCase {
  id: string;
  signed_text: string | null;
  signed_bytes_hex?: string;
  verifier_vkeys: string[] | null;
  expect: string;
  expected_text?: string;
  verified?: string[];
  unverified?: string[];
  signature_lines?: { key_name: string; key_id_hex: string; signature_length: number }[];
}
interface CheckpointFields {
  origin?: string;
  tree_size?: string;
  root_hash_base64?: string;
  extension_lines?: string[];
}

const vectors = sharedVector<Vectors>('signed-note/notes.json');
if (vectors === undefined)
  console.warn(`signed-note vectors skipped: ${SHARED_VECTORS}signed-note is absent`);

const message = (v: NoteCase) =>
  v.signed_bytes_hex ? hex(v.signed_bytes_hex) : (v.signed_text as string);

/** Opens like a client: the result kind, or `ok` with the opened note. */
function open(v: NoteCase, expectedOrigin?: string, checkpoint = false) {
  try {
    const opened = openNote(message(v), (v.verifier_vkeys ?? []).map(parseVkey));
    if (checkpoint) {
      const cp = parseCheckpoint(opened.text);
      if (expectedOrigin !== undefined && cp.origin !== expectedOrigin)
        return { result: 'origin_mismatch' };
    }
    return { result: 'ok', opened };
  } catch (error) {
    if (!(error instanceof NoteError)) throw error;
    return { result: error.kind, error };
  }
}

describe.skipIf(vectors === undefined)('C2SP signed-note vectors (x/mod, formats, C2SP)', () => {
  const V = vectors as Vectors;

  it('parses every verifier key, its key id and public key, and derives it from its signer key', () => {
    for (const k of V.keys) {
      const key = parseVkey(k.vkey);
      expect([key.name, keyIdHex(key.keyId), base64Encode(key.publicKey)]).toEqual([
        k.name,
        k.key_id_hex,
        k.public_key_base64,
      ]);
      for (const skey of [k.skey_if_public_in_test, k.skey_derived]) {
        if (skey == null) continue;
        const signer = parseSkey(skey);
        expect([signer.name, signer.keyId, signer.publicKey]).toEqual([
          key.name,
          key.keyId,
          key.publicKey,
        ]);
      }
    }
  });

  it('rejects every invalid verifier and signer key', () => {
    for (const { vkey } of V.invalid_vkeys) expect(() => parseVkey(vkey), vkey).toThrow(NoteError);
    for (const { skey } of V.invalid_skeys) expect(() => parseSkey(skey), skey).toThrow(NoteError);
  });

  it.each(V?.notes.map((n) => [n.id, n] as const) ?? [])('note %s', (_id, v) => {
    if (v.expect === 'parse_only') {
      const parsed = parseNote(message(v));
      expect(parsed.text).toBe(v.expected_text);
      expect(
        parsed.signatures.map((s) => ({
          key_name: s.name,
          key_id_hex: keyIdHex(s.keyId),
          signature_length: s.signature.length,
        })),
      ).toEqual(v.signature_lines);
      return;
    }
    const got = open(v);
    expect(got.result).toBe(v.expect);
    if (got.opened !== undefined) {
      expect(got.opened.text).toBe(v.expected_text);
      expect(got.opened.verified.map((k) => k.name)).toEqual(v.verified);
      expect(got.opened.unverified.map((s) => s.name)).toEqual(v.unverified);
    }
  });

  it('signs deterministically, reproducing every expected signed note', () => {
    for (const s of V.sign) {
      const signer = parseSkey(s.skey);
      const fresh = signNote(s.text, [signer]);
      const expected =
        s.existing_signed_text === undefined
          ? fresh
          : s.existing_signed_text + fresh.slice(s.text.length + 1);
      expect(expected, s.id).toBe(s.expected_signed_text);
      expect(ed25519Pure.sign(parseSkeySeed(s.skey), new TextEncoder().encode(s.text))).toEqual(
        ed25519Impl.sign(parseSkeySeed(s.skey), new TextEncoder().encode(s.text)),
      );
    }
  });

  it.each(V?.checkpoints.map((c) => [c.id, c] as const) ?? [])('checkpoint %s', (_id, c) => {
    if (c.expect === 'parse_only') {
      const cp = parseCheckpoint(parseNote(message(c)).text);
      expect([cp.origin, String(cp.size), base64Encode(cp.rootHash), cp.extensions]).toEqual([
        c.origin,
        c.tree_size,
        c.root_hash_base64,
        c.extension_lines,
      ]);
      return;
    }
    const got = open(c, c.expected_origin, true);
    expect(got.result).toBe(c.expect);
    if (c.expect === 'ok') {
      const cp = parseCheckpoint(got.opened!.text);
      expect([cp.origin, String(cp.size), base64Encode(cp.rootHash), cp.extensions]).toEqual([
        c.origin,
        c.tree_size,
        c.root_hash_base64,
        c.extension_lines,
      ]);
      expect(got.opened!.verified.map((k) => k.name)).toEqual(c.verified);
      expect(got.opened!.unverified.map((s) => s.name)).toEqual(c.unverified);
    }
  });

  it.each(V?.checkpoint_bodies.map((b) => [b.id, b] as const) ?? [])(
    'checkpoint body %s',
    (_id, b) => {
      let result = 'ok';
      try {
        const cp = parseCheckpoint(b.text);
        if (b.expected_origin !== undefined && cp.origin !== b.expected_origin)
          result = 'origin_mismatch';
        else {
          expect([cp.origin, String(cp.size), base64Encode(cp.rootHash), cp.extensions]).toEqual([
            b.origin,
            b.tree_size,
            b.root_hash_base64,
            b.extension_lines,
          ]);
          if (b.root_hash_is_leaf_hash_of_utf8 !== undefined) {
            expect(cp.rootHash).toEqual(
              leafHash(new TextEncoder().encode(b.root_hash_is_leaf_hash_of_utf8)),
            );
          }
        }
      } catch (error) {
        if (!(error instanceof NoteError)) throw error;
        result = error.kind;
      }
      expect(result).toBe(b.expect);
    },
  );
});

function parseSkeySeed(skey: string): Uint8Array {
  const base64 = /^PRIVATE\+KEY\+[^+]+\+[0-9a-f]{8}\+(.*)$/.exec(skey)![1]!;
  return base64Decode(base64)!.slice(1);
}
