import { noteSigner, publishedKey } from '@runledger/verify/note';
import type { CheckpointSigner } from '../ports/checkpoint-signer.js';

/**
 * A checkpoint signer for tests: a fixed Ed25519 seed (never a deployment's key), so signatures are
 * reproducible and a test can check them with `vkeyOf(signer)` or the published list.
 */
export function testCheckpointSigner(name = 'runledger.test', seedByte = 7): CheckpointSigner {
  const signer = noteSigner(name, new Uint8Array(32).fill(seedByte));
  return { ...signer, published: [publishedKey(signer, '1970-01-01T00:00:00.000Z', null)] };
}
