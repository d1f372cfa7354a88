import { bytesToHex } from '@noble/hashes/utils.js';

export const toHex = (bytes: Uint8Array): string => bytesToHex(bytes);

/** Value of a lowercase hex digit's char code, or -1. */
function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/** Bytes of a lowercase hex string, or null when it is not one. */
export function fromHex(text: string): Uint8Array | null {
  if (text.length % 2 !== 0) return null;
  const bytes = new Uint8Array(text.length / 2);
  return fromHexInto(text, bytes, 0) ? bytes : null;
}

/**
 * Writes the bytes of a lowercase hex string of even length into `out` from `at`, without
 * allocating; false (with `out` partly written) when it is not lowercase hex.
 */
export function fromHexInto(text: string, out: Uint8Array, at: number): boolean {
  const n = text.length / 2;
  for (let i = 0; i < n; i += 1) {
    const hi = nibble(text.charCodeAt(2 * i));
    const lo = nibble(text.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return false;
    out[at + i] = (hi << 4) | lo;
  }
  return true;
}
