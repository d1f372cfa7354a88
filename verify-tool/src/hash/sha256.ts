import { sha256 as pureSha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { nodeCrypto } from '../platform/node-crypto.js';

/**
 * SHA-256, chosen once at load time: `node:crypto` (native, several times faster) where it exists,
 * the audited pure-JS `@noble/hashes` in a browser. Both give the same bytes; a test checks it.
 */
type Digest = (data: Uint8Array | string) => Uint8Array;
type HexDigest = (data: Uint8Array | string) => string;

const pure: Digest = (data) => pureSha256(typeof data === 'string' ? utf8ToBytes(data) : data);
const pureHex: HexDigest = (data) => bytesToHex(pure(data));

const node = nodeCrypto;
/** A Buffer seen as a plain Uint8Array, so both backends return the same type. */
const plain = (b: Uint8Array) => new Uint8Array(b.buffer, b.byteOffset, b.length);
const oneShot = typeof node?.hash === 'function' ? node.hash : undefined;

/**
 * A digest written one byte per character (`binary`, Node's name for latin1), copied into a plain
 * Uint8Array. Node's Buffer output allocates outside the JS heap, which costs more than hashing a
 * Merkle node's 65 bytes: 1.2 µs a hash this way against 2.3-2.6 µs (docs/benchmarks.md).
 */
const bytesOfLatin1 = (digest: string): Uint8Array => {
  const bytes = new Uint8Array(digest.length);
  for (let i = 0; i < digest.length; i += 1) bytes[i] = digest.charCodeAt(i);
  return bytes;
};

export const sha256: Digest =
  node === undefined
    ? pure
    : oneShot !== undefined
      ? (data) => bytesOfLatin1(oneShot('sha256', data, 'binary'))
      : (data) => plain(node.createHash('sha256').update(data).digest());

/** Lowercase hex SHA-256 of bytes, or of a string's UTF-8 encoding. */
export const sha256Hex: HexDigest =
  node === undefined
    ? pureHex
    : oneShot !== undefined
      ? (data) => oneShot('sha256', data, 'hex')
      : (data) => node.createHash('sha256').update(data).digest('hex');

/** The pure-JS implementation, always; for tests and for measuring what a browser gets. */
export const sha256Pure: Digest = pure;
export const sha256HexPure: HexDigest = pureHex;

/** Which implementation `sha256` uses here. */
export const SHA256_BACKEND: 'node:crypto' | '@noble/hashes' =
  node === undefined ? '@noble/hashes' : 'node:crypto';

export const SHA256_HEX = /^[0-9a-f]{64}$/;
