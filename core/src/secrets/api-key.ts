import type { Random } from '../ports/index.js';
import { hashSecret, newSecret } from './secret.js';

/** Every plaintext API key starts with this, so leaked keys are easy to recognise and scan for. */
export const API_KEY_PREFIX = 'rlk_';

/** key_id: 16 lowercase hex characters (64 random bits), never containing the `_` separator. */
export const API_KEY_ID = /^[0-9a-f]{16}$/;
/** The secret part: base64url of at least 32 bytes. */
const API_KEY_SECRET = /^[A-Za-z0-9_-]{43,}$/;

export interface ParsedApiKey {
  key_id: string;
  secret: string;
}

export interface NewApiKey extends ParsedApiKey {
  /** The plaintext `rlk_<key_id>_<secret>`, shown once. */
  key: string;
  /** What storage keeps: SHA-256 hex of the whole plaintext key. */
  key_hash: string;
  /** The non-secret display prefix stored with the record, `rlk_<key_id>`. */
  prefix: string;
}

export function newApiKeyId(random: Random): string {
  return Buffer.from(random.bytes(8)).toString('hex');
}

export function formatApiKey(keyId: string, secret: string): string {
  return `${API_KEY_PREFIX}${keyId}_${secret}`;
}

export function apiKeyPrefix(keyId: string): string {
  return `${API_KEY_PREFIX}${keyId}`;
}

/**
 * Splits `rlk_<key_id>_<secret>`; null for anything else (the caller answers 401).
 * The secret may itself contain `_` (base64url), so the split is at the first `_` after the key id.
 */
export function parseApiKey(text: string): ParsedApiKey | null {
  if (!text.startsWith(API_KEY_PREFIX)) return null;
  const rest = text.slice(API_KEY_PREFIX.length);
  const cut = rest.indexOf('_');
  if (cut < 0) return null;
  const keyId = rest.slice(0, cut);
  const secret = rest.slice(cut + 1);
  if (!API_KEY_ID.test(keyId) || !API_KEY_SECRET.test(secret)) return null;
  return { key_id: keyId, secret };
}

export function newApiKey(random: Random): NewApiKey {
  const keyId = newApiKeyId(random);
  const secret = newSecret(random);
  const key = formatApiKey(keyId, secret);
  return { key_id: keyId, secret, key, key_hash: hashSecret(key), prefix: apiKeyPrefix(keyId) };
}
