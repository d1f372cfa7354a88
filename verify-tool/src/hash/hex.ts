import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';

export const toHex = (bytes: Uint8Array): string => bytesToHex(bytes);

/** Bytes of a lowercase hex string, or null when it is not one. */
export function fromHex(text: string): Uint8Array | null {
  if (text.length % 2 !== 0 || !/^[0-9a-f]*$/.test(text)) return null;
  return hexToBytes(text);
}
