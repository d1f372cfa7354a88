import type { LedgerEntryInput } from '../chain/types.js';

export const EXPORT_FORMAT = 'runledger.ledger/v1';

/** The first line of an export. */
export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  org_id: string;
  exported_at: string;
  count: number;
  /** receipt_sha256 of the last receipt; 64 zeros for an empty ledger. */
  head_sha256: string;
  /** The server's RECEIPT_PREFIX, so a third party can check receipt ids without configuration. */
  receipt_prefix?: string;
  /**
   * The signed checkpoint (C2SP signed note) of the organization's Merkle tree at exactly `count`
   * receipts: what lets a verifier holding the public key prove the export was not rewritten.
   */
  checkpoint?: string;
  /**
   * Which of the organization's logs this is: absent for the run ledger, `audit` for the audit
   * receipts. The checkpoint's origin then ends with `/orgs/<org_id>/<log>`.
   */
  log?: string;
}

/** The origin suffix the header's checkpoint must carry: `/orgs/<org_id>`, plus `/<log>` for a named log. */
export function exportOriginSuffix(header: Pick<ExportHeader, 'org_id' | 'log'>): string {
  return header.log === undefined
    ? `/orgs/${header.org_id}`
    : `/orgs/${header.org_id}/${header.log}`;
}

/** The header line, without its newline. */
export function formatExportHeader(header: Omit<ExportHeader, 'format'>): string {
  const line: ExportHeader = {
    format: EXPORT_FORMAT,
    org_id: header.org_id,
    exported_at: header.exported_at,
    count: header.count,
    head_sha256: header.head_sha256,
  };
  if (header.receipt_prefix !== undefined) line.receipt_prefix = header.receipt_prefix;
  if (header.checkpoint !== undefined) line.checkpoint = header.checkpoint;
  if (header.log !== undefined) line.log = header.log;
  return JSON.stringify(line);
}

/**
 * One receipt line, without its newline. The payload is spliced in as text, last, so the line
 * carries exactly the stored canonical bytes and a verifier can hash a slice of the line.
 */
export function formatExportLine(entry: LedgerEntryInput): string {
  return (
    '{"receipt_id":' +
    JSON.stringify(entry.receipt_id) +
    ',"org_seq":' +
    JSON.stringify(entry.org_seq) +
    ',"parent_hash":' +
    JSON.stringify(entry.parent_hash) +
    ',"receipt_sha256":' +
    JSON.stringify(entry.receipt_sha256) +
    ',"created_at":' +
    JSON.stringify(entry.created_at) +
    ',"payload":' +
    entry.payload_text +
    '}'
  );
}
