import type { ColumnTypes } from '../dialect.js';

/**
 * Migration 12: checkpoints witnesses cosigned (docs/witnesses.md). `witnessed_checkpoints` holds,
 * per (organization, log, size), the note sent to the witnesses with every cosignature received;
 * `witness_positions` the size each witness (by its vkey) last cosigned, the old size of the next
 * request to it.
 */
export const WITNESSES_SCHEMA = (t: ColumnTypes): string => `
  CREATE TABLE witnessed_checkpoints (
    org_id ${t.text} NOT NULL REFERENCES orgs(id),
    log ${t.text} NOT NULL,
    size ${t.int} NOT NULL CHECK (size >= 0),
    note ${t.text} NOT NULL,
    cosignatures ${t.int} NOT NULL CHECK (cosignatures >= 0),
    witnessed_at ${t.text} NOT NULL,
    PRIMARY KEY (org_id, log, size)
  );
  CREATE TABLE witness_positions (
    org_id ${t.text} NOT NULL REFERENCES orgs(id),
    log ${t.text} NOT NULL,
    witness ${t.text} NOT NULL,
    size ${t.int} NOT NULL CHECK (size >= 0),
    updated_at ${t.text} NOT NULL,
    PRIMARY KEY (org_id, log, witness)
  );
`;
