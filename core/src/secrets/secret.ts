import { sha256Hex } from '@runledger/verify/hash';
import { invalidInput } from '../errors.js';
import type { Random } from '../ports/random.js';

/** 32 bytes = 256 bits, the floor docs/design.md#actors-and-roles sets for every secret. */
export const MIN_SECRET_BYTES = 32;

/** A fresh secret from the CSPRNG port, base64url without padding (43 characters for 32 bytes). */
export function newSecret(random: Random, bytes: number = MIN_SECRET_BYTES): string {
  if (!Number.isSafeInteger(bytes) || bytes < MIN_SECRET_BYTES) {
    throw invalidInput(`a secret needs at least ${MIN_SECRET_BYTES} random bytes`);
  }
  const drawn = random.bytes(bytes);
  // A short read from a broken source would silently weaken every secret; refuse it.
  if (drawn.length !== bytes)
    throw new Error(`random source returned ${drawn.length} of ${bytes} bytes`);
  return Buffer.from(drawn).toString('base64url');
}

/** What storage keeps instead of a secret: lowercase hex SHA-256 of its UTF-8 text. */
export function hashSecret(plaintext: string): string {
  return sha256Hex(plaintext);
}

/**
 * Compares two strings in time that depends only on their lengths: every code unit is visited
 * and differences are OR-ed together, so where the first mismatch sits never shows in the timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) {
    // Past the end of the shorter string charCodeAt gives NaN, and NaN | 0 is 0; the length term already differs.
    diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  }
  return diff === 0;
}
