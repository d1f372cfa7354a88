import { fromHexInto } from '../hash/hex.js';
import { sha256 } from '../hash/sha256.js';

/** Size in bytes of every tree hash (SHA-256). */
export const HASH_SIZE = 32;

/** Root of the empty tree: SHA-256 of no bytes (RFC 9162 section 2.1.1). */
export const EMPTY_ROOT: Uint8Array = sha256(new Uint8Array(0));

const leafInput = new Uint8Array(1 + HASH_SIZE);
const nodeInput = new Uint8Array(1 + 2 * HASH_SIZE);
nodeInput[0] = 0x01;

/** SHA-256(0x00 ‖ data). Leaves of a runledger tree are the 32 raw bytes of a receipt_sha256. */
export function leafHash(data: Uint8Array): Uint8Array {
  if (data.length === HASH_SIZE) {
    leafInput.set(data, 1);
    return sha256(leafInput);
  }
  const input = new Uint8Array(1 + data.length);
  input.set(data, 1);
  return sha256(input);
}

/**
 * leafHash of the 32 bytes a 64-digit lowercase hex string stands for, decoded in place; the
 * leaf hash of 32 zero bytes when the string is anything else.
 */
export function leafHashOfHex(hex: string): Uint8Array {
  if (hex.length !== 2 * HASH_SIZE || !fromHexInto(hex, leafInput, 1)) leafInput.fill(0, 1);
  return sha256(leafInput);
}

/** SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length === HASH_SIZE && right.length === HASH_SIZE) {
    nodeInput.set(left, 1);
    nodeInput.set(right, 1 + HASH_SIZE);
    return sha256(nodeInput);
  }
  const input = new Uint8Array(1 + left.length + right.length);
  input[0] = 0x01;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return sha256(input);
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}
