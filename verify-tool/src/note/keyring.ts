import { base64Encode } from './base64.js';
import { NoteError } from './errors.js';
import { formatVkey, keyIdHex, parseVkey, type NoteVerifier } from './keys.js';

/**
 * The published keys document, `/.well-known/runledger-keys.json`:
 * `{keys: [{key_id, key_name, algorithm: "ed25519", public_key, vkey, not_before, not_after}]}`.
 * `public_key` is the standard base64 of the 32-byte Ed25519 key; `not_after` is null for the key
 * in use. A retired key stays listed with its `not_after`, so old checkpoints remain verifiable.
 */
export interface PublishedKey {
  key_id: string;
  key_name: string;
  algorithm: 'ed25519';
  public_key: string;
  vkey: string;
  not_before: string;
  not_after: string | null;
}

export interface KeysDocument {
  keys: PublishedKey[];
}

/** A trusted key with the window in which it signs (an open window for a bare vkey). */
export interface TrustedKey extends NoteVerifier {
  notBefore: string | null;
  notAfter: string | null;
}

/** The entry the server publishes for a key. */
export function publishedKey(
  key: NoteVerifier,
  notBefore: string,
  notAfter: string | null = null,
): PublishedKey {
  return {
    key_id: keyIdHex(key.keyId),
    key_name: key.name,
    algorithm: 'ed25519',
    public_key: base64Encode(key.publicKey),
    vkey: formatVkey(key.name, key.publicKey),
    not_before: notBefore,
    not_after: notAfter,
  };
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

/**
 * Reads a keys document; every entry must be self-consistent (its vkey, key id, name and public key
 * agree). Throws NoteError `bad_key`.
 */
export function parseKeysDocument(value: unknown): TrustedKey[] {
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new NoteError('bad_key', 'a keys document is {"keys": [...]}');
  return keys.map((entry: Partial<PublishedKey>, i) => {
    const where = `keys[${i}]`;
    if (typeof entry?.vkey !== 'string') throw new NoteError('bad_key', `${where}.vkey is missing`);
    const key = parseVkey(entry.vkey);
    if (
      entry.algorithm !== 'ed25519' ||
      entry.key_name !== key.name ||
      entry.key_id !== keyIdHex(key.keyId) ||
      entry.public_key !== base64Encode(key.publicKey)
    ) {
      throw new NoteError(
        'bad_key',
        `${where}: algorithm, key_name, key_id or public_key disagrees with its vkey`,
      );
    }
    if (typeof entry.not_before !== 'string' || !ISO.test(entry.not_before)) {
      throw new NoteError('bad_key', `${where}.not_before must be an ISO 8601 UTC time`);
    }
    if (
      entry.not_after !== null &&
      (typeof entry.not_after !== 'string' || !ISO.test(entry.not_after))
    ) {
      throw new NoteError('bad_key', `${where}.not_after must be null or an ISO 8601 UTC time`);
    }
    return { ...key, notBefore: entry.not_before, notAfter: entry.not_after };
  });
}

/** A bare vkey, trusted at any time. */
export function trustVkey(vkey: string): TrustedKey {
  return { ...parseVkey(vkey), notBefore: null, notAfter: null };
}

/**
 * The keys valid at `time` (ISO 8601 UTC): not_before ≤ time ≤ not_after. Without a time only keys
 * with an open window qualify, so a retired key cannot vouch for an undated note.
 */
export function keysValidAt(keys: readonly TrustedKey[], time: string | undefined): TrustedKey[] {
  const at = time === undefined ? undefined : Date.parse(time);
  return keys.filter((key) => {
    if (at === undefined || Number.isNaN(at))
      return key.notBefore === null && key.notAfter === null;
    if (key.notBefore !== null && at < Date.parse(key.notBefore)) return false;
    return key.notAfter === null || at <= Date.parse(key.notAfter);
  });
}
