import type { ColumnTypes } from '../dialect.js';

/**
 * Migration 7: audit receipts, one hash chain per organization beside the run ledger
 * (docs/audit.md), and the failed sign-in counters written into it once per window.
 */
export const AUDIT_SCHEMA = (t: ColumnTypes): string => `
  CREATE TABLE audit_receipts (
    receipt_id ${t.text} PRIMARY KEY,
    org_id ${t.text} NOT NULL REFERENCES orgs(id),
    org_seq ${t.int} NOT NULL,
    event_type ${t.text} NOT NULL,
    parent_hash ${t.text} NOT NULL,
    receipt_sha256 ${t.text} NOT NULL,
    payload_text ${t.text} NOT NULL,
    created_at ${t.text} NOT NULL,
    UNIQUE (org_id, org_seq)
  );
  CREATE INDEX audit_receipts_by_type ON audit_receipts (org_id, event_type, org_seq);
  CREATE TABLE audit_sign_in_failures (
    org_id ${t.text} NOT NULL REFERENCES orgs(id),
    window_start ${t.text} NOT NULL,
    count ${t.int} NOT NULL CHECK (count >= 1),
    first_at ${t.text} NOT NULL,
    last_at ${t.text} NOT NULL,
    PRIMARY KEY (org_id, window_start)
  );
`;
