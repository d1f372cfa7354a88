import { createPrivateKey, sign } from 'node:crypto';
import type { CheckpointSigner } from '@runledger/core/ports';
import type { PublishedKey } from '@runledger/core/schemas';
import { base64Decode, parseSkey, parseVkey, publishedKey } from '@runledger/verify/note';

/** A retired key: still published, so checkpoints it signed before `not_after` stay verifiable. */
export interface RetiredKey {
  vkey: string;
  not_before: string;
  not_after: string;
}

export interface CheckpointSignerOptions {
  /** The signed-note signer key string `PRIVATE+KEY+<name>+<key id>+<base64>` (SIGNING_KEY). */
  skey: string;
  /** From when the key in use signs (SIGNING_KEY_NOT_BEFORE). */
  notBefore: string;
  retired?: readonly RetiredKey[];
}

/** PKCS#8 DER prefix of an Ed25519 private key (RFC 8410): the 32-byte seed follows it. */
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The deployment's checkpoint signer over node:crypto's Ed25519. The key string is parsed (and its
 * key id checked) by the verify package; the seed is held only inside a KeyObject, never in a field
 * that a logger or JSON.stringify could print.
 */
export function checkpointSigner(options: CheckpointSignerOptions): CheckpointSigner {
  const parsed = parseSkey(options.skey);
  // PRIVATE+KEY+<name>+<key id>+<base64>: neither the name nor the id holds a '+', base64 may.
  const seed = base64Decode(options.skey.split('+').slice(4).join('+')) as Uint8Array;
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519, seed.subarray(1)]),
    format: 'der',
    type: 'pkcs8',
  });
  seed.fill(0);
  const published: PublishedKey[] = [
    publishedKey(parsed, options.notBefore, null),
    ...(options.retired ?? []).map((r) =>
      publishedKey(parseVkey(r.vkey), r.not_before, r.not_after),
    ),
  ];
  return {
    name: parsed.name,
    keyId: parsed.keyId,
    publicKey: parsed.publicKey,
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
    published,
  };
}
