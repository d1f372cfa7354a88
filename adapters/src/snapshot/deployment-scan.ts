import type { Sql } from '../sql/sql.js';

/** A stored chain row (ledger or audit), as fsck reads it in org_seq order. */
export interface ScannedChainRow {
  receipt_id: string;
  org_seq: number;
  parent_hash: string;
  receipt_sha256: string;
  created_at: string;
  payload_text: string;
}

/** One stored Merkle node of a level, in idx order. */
export interface ScannedNode {
  idx: number;
  hash: string;
}

/** The tables of the two chains every organization has. */
export type ChainTable = 'receipts' | 'audit_receipts';

/**
 * Read-only queries over a whole deployment, for backup manifests and fsck: each walks a primary
 * key or a unique index in keyset pages, so a scan of 10^6 rows never sorts.
 */
export interface DeploymentScan {
  orgIds(): Promise<string[]>;
  /** The organization's chain rows with org_seq > afterSeq, in order, at most `limit`. */
  chainPage(
    table: ChainTable,
    orgId: string,
    afterSeq: number,
    limit: number,
  ): Promise<ScannedChainRow[]>;
  /** How many rows, and the last one's org_seq and receipt_sha256 (null when empty). */
  chainHead(
    table: ChainTable,
    orgId: string,
  ): Promise<{ count: number; org_seq: number; receipt_sha256: string } | null>;
  /** The log names that have Merkle nodes for this organization. */
  logs(orgId: string): Promise<string[]>;
  /** Stored nodes of one level with idx > afterIdx, in idx order, at most `limit`. */
  nodesPage(
    orgId: string,
    log: string,
    level: number,
    afterIdx: number,
    limit: number,
  ): Promise<ScannedNode[]>;
  /** The SHA-256 of every blob the database refers to (uploaded evidence files), sorted. */
  referencedBlobs(): Promise<string[]>;
}

const CHAIN_COLUMNS = 'receipt_id, org_seq, parent_hash, receipt_sha256, created_at, payload_text';

export function deploymentScan(sql: Sql): DeploymentScan {
  return {
    async orgIds() {
      const rows = await sql.all<{ id: string }>('SELECT id FROM orgs ORDER BY id');
      return rows.map((r) => r.id);
    },
    async chainPage(table, orgId, afterSeq, limit) {
      const rows = await sql.all<ScannedChainRow>(
        `SELECT ${CHAIN_COLUMNS} FROM ${table} WHERE org_id = ? AND org_seq > ?
         ORDER BY org_seq LIMIT ?`,
        [orgId, afterSeq, limit],
      );
      for (const row of rows) row.org_seq = Number(row.org_seq);
      return rows;
    },
    async chainHead(table, orgId) {
      const row = await sql.get<{ n: number; org_seq: number | null; receipt_sha256: string }>(
        `SELECT (SELECT COUNT(*) FROM ${table} WHERE org_id = ?) AS n, org_seq, receipt_sha256
         FROM ${table} WHERE org_id = ? ORDER BY org_seq DESC LIMIT 1`,
        [orgId, orgId],
      );
      if (row === undefined) return null;
      return {
        count: Number(row.n),
        org_seq: Number(row.org_seq),
        receipt_sha256: row.receipt_sha256,
      };
    },
    async logs(orgId) {
      const rows = await sql.all<{ log: string }>(
        'SELECT DISTINCT log FROM merkle_nodes WHERE org_id = ? AND level = 0 ORDER BY log',
        [orgId],
      );
      return rows.map((r) => r.log);
    },
    async nodesPage(orgId, log, level, afterIdx, limit) {
      const rows = await sql.all<{ idx: number | string; hash: string }>(
        `SELECT idx, hash FROM merkle_nodes WHERE org_id = ? AND log = ? AND level = ? AND idx > ?
         ORDER BY idx LIMIT ?`,
        [orgId, log, level, afterIdx, limit],
      );
      return rows.map((r) => ({ idx: Number(r.idx), hash: r.hash }));
    },
    async referencedBlobs() {
      const rows = await sql.all<{ sha256: string }>(
        "SELECT DISTINCT sha256 FROM evidence WHERE kind = 'file' ORDER BY sha256",
      );
      return rows.map((r) => r.sha256);
    },
  };
}
