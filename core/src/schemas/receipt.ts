import { z } from 'zod';
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

export type Receipt = z.infer<typeof Receipt>;
export type PublicReceipt = z.infer<typeof PublicReceipt>;
