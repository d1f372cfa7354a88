import { z } from 'zod';
import { NextCursor, Sha256Hex, Timestamp } from './common.js';
import { LedgerErrorCode } from './enums.js';

const OrgSeq = z.int().min(0);

export const LedgerEntry = z.object({
  receipt_id: z.string(),
  org_seq: OrgSeq,
  parent_hash: Sha256Hex,
  receipt_sha256: Sha256Hex,
  created_at: Timestamp,
});

export const LedgerList = z.object({ entries: z.array(LedgerEntry), next: NextCursor });

export const LedgerVerifyError = z.object({
  receipt_id: z.string(),
  org_seq: OrgSeq,
  code: LedgerErrorCode,
  message: z.string(),
});

export const LedgerVerifyResult = z.object({
  ok: z.boolean(),
  receipts_checked: z.int().min(0),
  errors: z.array(LedgerVerifyError),
});

export type LedgerEntry = z.infer<typeof LedgerEntry>;
export type LedgerList = z.infer<typeof LedgerList>;
export type LedgerVerifyError = z.infer<typeof LedgerVerifyError>;
export type LedgerVerifyResult = z.infer<typeof LedgerVerifyResult>;
