import { z } from 'zod';
import { InclusionProof, SignedCheckpoint } from './checkpoint.js';
import { Sha256Hex, Timestamp } from './common.js';

const OrgSeq = z.int().min(0);

export const Receipt = z.object({
  receipt_id: z.string(),
  org_seq: OrgSeq,
  parent_hash: Sha256Hex,
  receipt_sha256: Sha256Hex,
  share_token: z.string(),
  share_url: z.url(),
  pdf_url: z.url(),
  created_at: Timestamp,
});

/** What `GET /share/{token}` shows anyone: the payload and whether it still hashes to receipt_sha256. */
export const PublicReceipt = z.object({
  receipt_id: z.string(),
  org_seq: OrgSeq,
  receipt_sha256: Sha256Hex,
  payload: z.record(z.string(), z.unknown()),
  verified: z.boolean(),
});

/**
 * What `GET /share/{token}` answers in JSON: the public receipt with the organization's signed
 * checkpoint when it was read and the receipt's audit path in that checkpoint's tree, so
 * `runledger-verify receipt` checks it offline, without the export (docs/checkpoints.md).
 */
export const SharedReceipt = PublicReceipt.extend({
  checkpoint: SignedCheckpoint,
  inclusion_proof: InclusionProof,
});

export type Receipt = z.infer<typeof Receipt>;
export type PublicReceipt = z.infer<typeof PublicReceipt>;
export type SharedReceipt = z.infer<typeof SharedReceipt>;
