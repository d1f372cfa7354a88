import { ed25519 } from '@noble/curves/ed25519.js';
import { nodeCrypto } from '../platform/node-crypto.js';

/**
 * Ed25519 (RFC 8032) from a 32-byte seed: node:crypto in Node, @noble/curves elsewhere.
 * Both are deterministic and give identical signatures; a test checks it.
 */

// DER prefixes that wrap a raw 32-byte key as PKCS#8 (private) and SPKI (public) for node:crypto.
const PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);
const SPKI_PREFIX = Uint8Array.from([
  0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
]);

const concat = (a: Uint8Array, b: Uint8Array) => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

export interface Ed25519 {
  publicKey(seed: Uint8Array): Uint8Array;
  sign(seed: Uint8Array, message: Uint8Array): Uint8Array;
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean;
}

export const ed25519Pure: Ed25519 = {
  publicKey: (seed) => ed25519.getPublicKey(seed),
  sign: (seed, message) => ed25519.sign(message, seed),
  verify: (publicKey, message, signature) => {
    try {
      return ed25519.verify(signature, message, publicKey, { zip215: false });
    } catch {
      return false;
    }
  },
};

function nodeEd25519(crypto: NonNullable<typeof nodeCrypto>): Ed25519 {
  const privateKey = (seed: Uint8Array) =>
    crypto.createPrivateKey({
      key: Buffer.from(concat(PKCS8_PREFIX, seed)),
      format: 'der',
      type: 'pkcs8',
    });
  return {
    publicKey: (seed) =>
      new Uint8Array(
        crypto.createPublicKey(privateKey(seed)).export({ format: 'der', type: 'spki' }),
      ).slice(SPKI_PREFIX.length),
    sign: (seed, message) => new Uint8Array(crypto.sign(null, message, privateKey(seed))),
    verify: (publicKey, message, signature) => {
      if (publicKey.length !== 32 || signature.length !== 64) return false;
      try {
        const key = crypto.createPublicKey({
          key: Buffer.from(concat(SPKI_PREFIX, publicKey)),
          format: 'der',
          type: 'spki',
        });
        return crypto.verify(null, message, key, signature);
      } catch {
        return false;
      }
    },
  };
}

/** The implementation in use here. */
export const ed25519Impl: Ed25519 =
  nodeCrypto === undefined ? ed25519Pure : nodeEd25519(nodeCrypto);
