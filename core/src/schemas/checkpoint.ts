import { z } from 'zod';
import { Sha256Hex, Timestamp } from './common.js';

/** The 8 lowercase hex digits of a signed-note key id. */
const KeyId = z.string().regex(/^[0-9a-f]{8}$/);
const TreeSize = z.int().min(0);

/** One entry of `/.well-known/runledger-keys.json` (docs/checkpoints.md#keys). */
export const PublishedKey = z.object({
  key_id: KeyId,
  key_name: z.string().min(1),
  algorithm: z.literal('ed25519'),
  /** Standard base64 of the 32-byte Ed25519 public key. */
  public_key: z.string(),
  /** The signed-note verifier key string `<name>+<key id>+<base64>`. */
  vkey: z.string(),
  not_before: Timestamp,
  /** null for the key in use; a retired key keeps its entry with the time it stopped signing. */
  not_after: Timestamp.nullable(),
});

export const KeysDocument = z.object({ keys: z.array(PublishedKey) });

/** `GET /ledger/checkpoint`: the signed note and the fields it states. */
export const SignedCheckpoint = z.object({
  /** The C2SP signed note: origin, size, base64 root, `time` line, blank line, signature line. */
  checkpoint: z.string(),
  tree_size: TreeSize,
  root_hash: Sha256Hex,
  key_id: KeyId,
});

/** `GET /ledger/proof/inclusion`: the RFC 9162 audit path of one receipt, bottom-up. */
export const InclusionProof = z.object({
  receipt_id: z.string(),
  leaf_index: TreeSize,
  tree_size: TreeSize,
  hashes: z.array(Sha256Hex),
});

/** `GET /ledger/proof/consistency`: the RFC 9162 proof that tree `second` extends tree `first`. */
export const ConsistencyProof = z.object({
  first: TreeSize,
  second: TreeSize,
  hashes: z.array(Sha256Hex),
});

export type PublishedKey = z.infer<typeof PublishedKey>;
export type KeysDocument = z.infer<typeof KeysDocument>;
export type SignedCheckpoint = z.infer<typeof SignedCheckpoint>;
export type InclusionProof = z.infer<typeof InclusionProof>;
export type ConsistencyProof = z.infer<typeof ConsistencyProof>;
