/** One stored ledger row, as the database or an export line holds it. */
export interface LedgerEntryInput {
  receipt_id: string;
  org_seq: number;
  parent_hash: string;
  receipt_sha256: string;
  created_at: string;
  /** The payload's canonical JSON text exactly as stored; these are the bytes that are hashed. */
  payload_text: string;
  /**
   * SHA-256 (hex) of payload_text's UTF-8 bytes, when the reader already hashed them from the raw
   * line (a byte slice hashes faster than a string); the verifier trusts it as its own computation.
   */
  payload_sha256?: string;
}

export type ChainErrorCode =
  /** sha256(payload bytes) differs from the stored receipt_sha256. */
  | 'hash_mismatch'
  /** parent_hash differs from the previous receipt's receipt_sha256. */
  | 'parent_mismatch'
  /** org_seq skips ahead of previous + 1 (a receipt is missing). */
  | 'seq_gap'
  /** org_seq repeats the previous one. */
  | 'seq_duplicate'
  /** org_seq goes backwards (rows out of order). */
  | 'seq_order'
  /** receipt_id is not `{prefix}-{org_seq, 6 digits}-{first 8 hex of receipt_sha256}`. */
  | 'id_mismatch'
  /** A stored column disagrees with the payload (org_seq, parent_hash, org_id, created_at vs minted_at). */
  | 'field_mismatch'
  /** The first receipt is not org_seq 0 with a parent_hash of 64 zeros. */
  | 'bad_genesis'
  /** The payload text is not JSON, or not a JSON object. */
  | 'bad_payload'
  /** Strict mode: the payload text is not its own RFC 8785 canonical form. */
  | 'not_canonical'
  /** A stored column has the wrong type or shape (org_seq not an integer, a hash not 64 hex). */
  | 'bad_entry'
  /** Export only: a receipt line is not a JSON object with the export's fields. */
  | 'bad_line'
  /** Export only: the header's count differs from the receipt lines that follow (more lines). */
  | 'count_mismatch'
  /** The last receipt is not the expected head (the export header's head_sha256). */
  | 'head_mismatch'
  /** Export only: the header's org_id differs from the org the caller expected. */
  | 'header_mismatch'
  /** Export only: the header's checkpoint is not a readable signed note with a checkpoint body. */
  | 'bad_checkpoint'
  /** Export only: the Merkle root of the receipts (or their count) differs from the signed checkpoint. */
  | 'root_mismatch'
  /** Export only: the checkpoint's origin is not this organization's ledger. */
  | 'origin_mismatch'
  /** Export only: no supplied key valid at the checkpoint's time signed it. */
  | 'signature_invalid'
  /** Export only: fewer than the required witnesses cosigned the checkpoint. */
  | 'witness_quorum';

export interface ChainError {
  /** The receipt the finding is about; null when it is about the export as a whole or an unreadable line. */
  receipt_id: string | null;
  org_seq: number | null;
  code: ChainErrorCode;
  message: string;
  /** 1-based line number in the export file, when verifying an export. */
  line?: number;
}

export interface ChainVerifyResult {
  ok: boolean;
  receipts_checked: number;
  errors: ChainError[];
  /** Findings past `maxErrors` are counted here instead of being kept, so memory stays bounded. */
  errors_omitted: number;
}

export interface ChainVerifyOptions {
  /** Also require each payload text to be exactly its RFC 8785 canonical form. */
  strict?: boolean;
  /** The receipt id prefix (RECEIPT_PREFIX); default `rcpt`. */
  receiptPrefix?: string;
  /** When given, every payload's org_id must equal it. Otherwise the first payload's org_id is expected of all. */
  expectedOrgId?: string;
  /** When given, the last receipt's receipt_sha256 (64 zeros for an empty ledger) must equal it. */
  expectedHeadSha256?: string;
  /** At most this many findings are kept (default 1000); the rest are only counted. */
  maxErrors?: number;
  /**
   * Resume a chain after a receipt checked elsewhere: the first entry pushed must follow it
   * (org_seq + 1, parent_hash = its receipt_sha256) instead of being the genesis receipt.
   */
  after?: { org_seq: number; receipt_sha256: string; receipt_id?: string };
}
