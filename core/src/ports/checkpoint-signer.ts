import type { PublishedKey } from '../schemas/checkpoint.js';

/**
 * The deployment's checkpoint key (docs/checkpoints.md#keys): a C2SP signed-note Ed25519 signer.
 * The private key stays in the adapter; core only asks for signatures and for the published list.
 */
export interface CheckpointSigner {
  /** The key name of signature lines. */
  readonly name: string;
  /** The 4-byte signed-note key id as an unsigned 32-bit integer. */
  readonly keyId: number;
  /** The 32-byte Ed25519 public key. */
  readonly publicKey: Uint8Array;
  /** The Ed25519 signature of `message`. */
  sign(message: Uint8Array): Uint8Array;
  /** Every key a verifier may need: the one in use first, then retired ones with their not_after. */
  readonly published: readonly PublishedKey[];
}
