import { sha256 } from '../hash/sha256.js';
import { base64Decode, base64Encode } from './base64.js';
import { ed25519Impl } from './ed25519.js';
import { NoteError } from './errors.js';

/**
 * C2SP signed-note keys (Ed25519 only).
 * - key id: the first 4 bytes (big-endian uint32) of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key);
 * - verifier key (vkey): `<name>+<8 hex key id>+base64(0x01 ‖ public key)`;
 * - signer key (skey): `PRIVATE+KEY+<name>+<8 hex key id>+base64(0x01 ‖ 32-byte seed)`.
 */

export const ALG_ED25519 = 0x01;

export interface NoteVerifier {
  name: string;
  /** The 4-byte key id as an unsigned 32-bit integer. */
  keyId: number;
  publicKey: Uint8Array;
}

export interface NoteSigner extends NoteVerifier {
  /** Ed25519 signature of the message bytes. */
  sign(message: Uint8Array): Uint8Array;
}

const encoder = new TextEncoder();

/** Key names: non-empty, no Unicode white space, no `+`. */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && !/[\p{White_Space}+]/u.test(name);
}

export function noteKeyId(name: string, publicKey: Uint8Array): number {
  const nameBytes = encoder.encode(name);
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  input.set(nameBytes);
  input[nameBytes.length] = 0x0a;
  input[nameBytes.length + 1] = ALG_ED25519;
  input.set(publicKey, nameBytes.length + 2);
  const digest = sha256(input);
  return (
    (((digest[0] as number) << 24) |
      ((digest[1] as number) << 16) |
      ((digest[2] as number) << 8) |
      (digest[3] as number)) >>>
    0
  );
}

export const keyIdHex = (keyId: number): string => keyId.toString(16).padStart(8, '0');

const typed = (key: Uint8Array) => {
  const out = new Uint8Array(1 + key.length);
  out[0] = ALG_ED25519;
  out.set(key, 1);
  return out;
};

export function formatVkey(name: string, publicKey: Uint8Array): string {
  return `${name}+${keyIdHex(noteKeyId(name, publicKey))}+${base64Encode(typed(publicKey))}`;
}

/** Splits `a+b+rest` on its first two `+` (base64 may contain `+`). */
function cut(text: string): [string, string] | null {
  const at = text.indexOf('+');
  return at < 0 ? null : [text.slice(0, at), text.slice(at + 1)];
}

/** The key bytes after the type byte, checked: Ed25519, 32 bytes. */
function ed25519Key(base64: string, what: string): Uint8Array {
  const key = base64Decode(base64);
  if (key === null || key.length === 0)
    throw new NoteError('bad_key', `${what}: the key is not base64`);
  if (key[0] !== ALG_ED25519)
    throw new NoteError('bad_key', `${what}: unknown signature algorithm ${key[0]}`);
  if (key.length !== 33) throw new NoteError('bad_key', `${what}: an Ed25519 key is 32 bytes`);
  return key.slice(1);
}

function nameAndId(text: string, what: string): { name: string; keyId: number; rest: string } {
  const first = cut(text);
  const second = first && cut(first[1]);
  if (first === null || second === null)
    throw new NoteError('bad_key', `${what} has too few parts`);
  const [name] = first;
  const [hexId, rest] = second;
  if (!isValidKeyName(name)) throw new NoteError('bad_key', `${what}: invalid key name`);
  if (!/^[0-9a-f]{8}$/.test(hexId))
    throw new NoteError('bad_key', `${what}: the key id is not 8 hex digits`);
  return { name, keyId: parseInt(hexId, 16), rest };
}

/** Parses a verifier key string; throws NoteError `bad_key` when it is malformed or its id is wrong. */
export function parseVkey(vkey: string): NoteVerifier {
  const { name, keyId, rest } = nameAndId(vkey, 'verifier key');
  const publicKey = ed25519Key(rest, 'verifier key');
  if (noteKeyId(name, publicKey) !== keyId) {
    throw new NoteError('bad_key', 'verifier key: the key id does not match the name and key');
  }
  return { name, keyId, publicKey };
}

/** A signer from a key name and a 32-byte Ed25519 seed. */
export function noteSigner(name: string, seed: Uint8Array): NoteSigner {
  if (!isValidKeyName(name)) throw new NoteError('bad_key', 'signer key: invalid key name');
  if (seed.length !== 32) throw new NoteError('bad_key', 'signer key: an Ed25519 seed is 32 bytes');
  const own = Uint8Array.from(seed);
  const publicKey = ed25519Impl.publicKey(own);
  return {
    name,
    keyId: noteKeyId(name, publicKey),
    publicKey,
    sign: (message) => ed25519Impl.sign(own, message),
  };
}

/** Parses a signer key string (the form a deployment's SIGNING_KEY can take). */
export function parseSkey(skey: string): NoteSigner {
  if (!skey.startsWith('PRIVATE+KEY+'))
    throw new NoteError('bad_key', 'signer key must start with PRIVATE+KEY+');
  const { name, keyId, rest } = nameAndId(skey.slice('PRIVATE+KEY+'.length), 'signer key');
  const signer = noteSigner(name, ed25519Key(rest, 'signer key'));
  if (signer.keyId !== keyId)
    throw new NoteError('bad_key', 'signer key: the key id does not match the derived public key');
  return signer;
}

export function formatSkey(name: string, seed: Uint8Array): string {
  const signer = noteSigner(name, seed);
  return `PRIVATE+KEY+${name}+${keyIdHex(signer.keyId)}+${base64Encode(typed(seed))}`;
}

export function verifierOf(signer: NoteVerifier): NoteVerifier {
  return { name: signer.name, keyId: signer.keyId, publicKey: signer.publicKey };
}
