import { sha256 } from '../hash/sha256.js';
import { base64Decode, base64Encode } from '../note/base64.js';
import { ed25519Impl } from '../note/ed25519.js';
import { NoteError } from '../note/errors.js';
import { isValidKeyName, keyIdHex } from '../note/keys.js';

/**
 * Witness (cosigner) keys of C2SP tlog-cosignature, Ed25519 `cosignature/v1` only:
 * - key id: the first 4 bytes of SHA-256(name ‖ 0x0A ‖ 0x04 ‖ 32-byte public key);
 * - verifier key (vkey): `<name>+<8 hex key id>+base64(0x04 ‖ public key)` (C2SP signed-note).
 * The type byte 0x04 keeps a witness key apart from a log key (0x01) of the same name.
 */

export const ALG_COSIGNATURE_V1 = 0x04;

export interface CosignerKey {
  name: string;
  /** The 4-byte key id as an unsigned 32-bit integer. */
  keyId: number;
  publicKey: Uint8Array;
}

export interface CosignerSigner extends CosignerKey {
  /** Ed25519 signature of the message bytes. */
  sign(message: Uint8Array): Uint8Array;
}

const encoder = new TextEncoder();

export function cosignerKeyId(name: string, publicKey: Uint8Array): number {
  const nameBytes = encoder.encode(name);
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  input.set(nameBytes);
  input[nameBytes.length] = 0x0a;
  input[nameBytes.length + 1] = ALG_COSIGNATURE_V1;
  input.set(publicKey, nameBytes.length + 2);
  const digest = sha256(input);
  return new DataView(digest.buffer, digest.byteOffset).getUint32(0);
}

export function formatCosignerVkey(name: string, publicKey: Uint8Array): string {
  const typed = new Uint8Array(33);
  typed[0] = ALG_COSIGNATURE_V1;
  typed.set(publicKey, 1);
  return `${name}+${keyIdHex(cosignerKeyId(name, publicKey))}+${base64Encode(typed)}`;
}

/** Parses a witness vkey; throws NoteError `bad_key` when it is malformed or not a cosigner key. */
export function parseCosignerVkey(vkey: string): CosignerKey {
  const match = /^([^+]+)\+([0-9a-f]{8})\+(.+)$/s.exec(vkey);
  if (match === null) throw new NoteError('bad_key', 'witness key is not name+id+base64');
  const [, name, hexId, rest] = match as unknown as [string, string, string, string];
  if (!isValidKeyName(name)) throw new NoteError('bad_key', 'witness key: invalid key name');
  const typed = base64Decode(rest);
  if (typed === null || typed.length === 0)
    throw new NoteError('bad_key', 'witness key: the key is not base64');
  if (typed[0] !== ALG_COSIGNATURE_V1) {
    throw new NoteError(
      'bad_key',
      `witness key: type ${typed[0]} is not an Ed25519 cosignature/v1 key (0x04)`,
    );
  }
  if (typed.length !== 33)
    throw new NoteError('bad_key', 'witness key: an Ed25519 key is 32 bytes');
  const publicKey = typed.slice(1);
  const keyId = parseInt(hexId, 16);
  if (cosignerKeyId(name, publicKey) !== keyId) {
    throw new NoteError('bad_key', 'witness key: the key id does not match the name and key');
  }
  return { name, keyId, publicKey };
}

/** A cosigner from a name and a 32-byte Ed25519 seed. */
export function cosignerSigner(name: string, seed: Uint8Array): CosignerSigner {
  if (!isValidKeyName(name)) throw new NoteError('bad_key', 'witness key: invalid key name');
  if (seed.length !== 32)
    throw new NoteError('bad_key', 'witness key: an Ed25519 seed is 32 bytes');
  const own = Uint8Array.from(seed);
  const publicKey = ed25519Impl.publicKey(own);
  return {
    name,
    keyId: cosignerKeyId(name, publicKey),
    publicKey,
    sign: (message) => ed25519Impl.sign(own, message),
  };
}
