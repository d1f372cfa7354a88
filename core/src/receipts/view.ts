import type { ReceiptRecord } from '../ports/storage.js';
import type { Receipt } from '../schemas/receipt.js';
import { pdfUrl, shareUrl } from './share.js';

/** A receipt as the wire shows it, with its public share and PDF links. */
export function toReceipt(r: ReceiptRecord, publicBaseUrl: string): Receipt {
  return {
    receipt_id: r.receipt_id,
    org_seq: r.org_seq,
    parent_hash: r.parent_hash,
    receipt_sha256: r.receipt_sha256,
    share_token: r.share_token,
    share_url: shareUrl(publicBaseUrl, r.share_token),
    pdf_url: pdfUrl(publicBaseUrl, r.share_token),
    created_at: r.created_at,
  };
}
