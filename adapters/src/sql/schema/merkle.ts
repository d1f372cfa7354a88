import type { ColumnTypes } from '../dialect.js';

/**
 * Migration 6: the Merkle trees of docs/checkpoints.md, one per (organization, log). A row is the
 * hash of a complete subtree: node (level, idx) covers leaves [idx·2^level, (idx+1)·2^level). Only
 * complete subtrees ever appear, and once written they never change; every other hash is folded
 * from them. The tree's size is 1 + the largest level-0 idx (one row of the primary key).
 * Receipts minted before this migration get their tree built at start (backfillLedgerTrees).
 */
export const MERKLE_SCHEMA = (t: ColumnTypes): string => `
  CREATE TABLE merkle_nodes (
    org_id ${t.text} NOT NULL REFERENCES orgs(id),
    log ${t.text} NOT NULL,
    level ${t.int} NOT NULL CHECK (level >= 0 AND level < 64),
    idx ${t.int} NOT NULL CHECK (idx >= 0),
    -- lowercase hex of the 32-byte SHA-256
    hash ${t.text} NOT NULL CHECK (length(hash) = 64),
    PRIMARY KEY (org_id, log, level, idx)
  );
`;
