import type { AuditReceiptRecord } from '../ports/audit-storage.js';
import { AuditEventType, type AuditReceipt } from '../schemas/audit-receipt.js';

/** The wire form of a stored audit receipt: its chain columns and its parsed payload. */
export function toAuditReceipt(r: AuditReceiptRecord): AuditReceipt {
  return {
    receipt_id: r.receipt_id,
    org_seq: r.org_seq,
    parent_hash: r.parent_hash,
    receipt_sha256: r.receipt_sha256,
    created_at: r.created_at,
    event_type: AuditEventType.parse(r.event_type),
    payload: JSON.parse(r.payload_text) as AuditReceipt['payload'],
  };
}
