import { sha256Hex } from '@runledger/verify';
import type { Random } from '../ports/random.js';

/** 32 random bytes (256 bits) as base64url: link, invite and API-key secrets. */
export function newSecret(random: Random): string {
  return Buffer.from(random.bytes(32)).toString('base64url');
}

/** Secrets are stored only as their SHA-256 (lowercase hex). */
export function hashSecret(secret: string): string {
  return sha256Hex(secret);
}

/** Compares two strings without an early exit, so timing does not reveal a matching prefix. */
export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  }
  return diff === 0;
}
