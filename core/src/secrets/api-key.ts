import { hashSecret, newSecret } from './secret.js';

/** Every plaintext API key starts with this, so leaked keys are easy to recognise and scan for. */
export const API_KEY_PREFIX = 'rlk_';

/** key_id: `key_` and 26 base32 characters (the project's id format), never containing `_` after the tag. */
export const API_KEY_ID = /^key_[a-z2-7]{26}$/;
const API_KEY = /^rlk_(key_[a-z2-7]{26})_([A-Za-z0-9_-]{43})$/;
/** Shown in lists to tell keys apart: `rlk_key_` and 8 characters of the public key id, nothing secret. */
const DISPLAY_PREFIX_LENGTH = 16;

export interface ParsedApiKey {
  key_id: string;
  secret: string;
}

export interface NewApiKey extends ParsedApiKey {
  /** The plaintext `rlk_<key_id>_<secret>`, shown once. */
  key: string;
  /** What storage keeps: SHA-256 hex of the secret part. */
  secret_hash: string;
  /** The non-secret display prefix stored with the record. */
  prefix: string;
}

export function formatApiKey(keyId: string, secret: string): string {
  return `${API_KEY_PREFIX}${keyId}_${secret}`;
}

/** Splits `rlk_<key_id>_<secret>`; null for anything else (the caller answers 401). */
export function parseApiKey(text: unknown): ParsedApiKey | null {
  const match = typeof text === 'string' ? API_KEY.exec(text) : null;
  return match ? { key_id: match[1]!, secret: match[2]! } : null;
}

export function newApiKey(keyId: string, random: Parameters<typeof newSecret>[0]): NewApiKey {
  const secret = newSecret(random);
  const key = formatApiKey(keyId, secret);
  return {
    key_id: keyId,
    secret,
    key,
    secret_hash: hashSecret(secret),
    prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
  };
}
