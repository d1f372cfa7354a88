import type { ChainHead } from '../ports/run-storage.js';
import { nextLink, sealed, validPayload } from '../receipts/build.js';
import { AuditReceiptPayload, type AuditActor, type AuditEvent } from '../schemas/audit-receipt.js';

/**
 * The receipt id prefix of audit receipts: fixed, so an audit receipt id never reads as a run
 * receipt's (`audit-000007-…` beside `rcpt-000007-…`), and the export header names it.
 */
export const AUDIT_RECEIPT_PREFIX = 'audit';

/**
 * The log name of the audit chain: its Merkle tree's name, the export header's `log`, and the last
 * segment of its checkpoint origin (`<host>/orgs/<org_id>/audit`).
 */
export const AUDIT_LOG = 'audit';

export interface AuditReceiptInput {
  head: ChainHead | null;
  orgId: string;
  actor: AuditActor;
  event: AuditEvent;
  now: Date;
}

export interface BuiltAuditReceipt {
  payload: AuditReceiptPayload;
  /** The canonical JSON (RFC 8785) text that was hashed; storage keeps exactly these bytes. */
  payload_text: string;
  receipt_sha256: string;
  receipt_id: string;
  org_seq: number;
  parent_hash: string;
}

/**
 * Builds, validates and hashes an audit receipt (docs/audit.md). Pure: the caller reads the head
 * and inserts the result in one transaction, under UNIQUE(org_id, org_seq). Same chain rules as
 * run receipts (nextLink), so the verify package checks both alike.
 */
export function buildAuditReceipt(input: AuditReceiptInput): BuiltAuditReceipt {
  const { org_seq, parent_hash } = nextLink(input.head);
  const payload = validPayload(
    AuditReceiptPayload,
    {
      v: 1,
      type: 'audit_receipt',
      org_id: input.orgId,
      org_seq,
      parent_hash,
      minted_at: input.now.toISOString(),
      actor: input.actor,
      event: input.event,
    },
    'audit receipt',
  );
  return sealed(payload, AUDIT_RECEIPT_PREFIX);
}
