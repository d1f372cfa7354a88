import type {
  ChainHead,
  ReceiptEntry,
  ReceiptRecord,
  ReceiptsRepository,
} from '@runledger/core/ports';
import type { Sql, SqlParam } from './sql.js';

const ENTRY = 'receipt_id, org_seq, parent_hash, receipt_sha256, created_at';
const FULL = `${ENTRY}, org_id, run_id, payload_text, share_token`;

/** Every query walks the UNIQUE(org_id, org_seq) index: the head is one row, chunks are keyset ranges. */
export function receiptsRepository(sql: Sql): ReceiptsRepository {
  return {
    async insert(r) {
      await sql.run(
        `INSERT INTO receipts (receipt_id, org_id, org_seq, run_id, parent_hash, receipt_sha256,
           payload_text, share_token, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        rowOf(r),
      );
    },
    async head(orgId) {
      const row = await sql.get<ChainHead>(
        'SELECT org_seq, receipt_sha256 FROM receipts WHERE org_id = ? ORDER BY org_seq DESC LIMIT 1',
        [orgId],
      );
      return row ?? null;
    },
    async byRun(orgId, runId) {
      const row = await sql.get<ReceiptRecord>(
        `SELECT ${FULL} FROM receipts WHERE run_id = ? AND org_id = ?`,
        [runId, orgId],
      );
      return row ?? null;
    },
    async byShareToken(token) {
      const row = await sql.get<ReceiptRecord>(
        `SELECT ${FULL} FROM receipts WHERE share_token = ?`,
        [token],
      );
      return row ?? null;
    },
    async entries(orgId, afterSeq, limit) {
      return sql.all<ReceiptEntry>(
        `SELECT ${ENTRY} FROM receipts WHERE org_id = ? AND org_seq > ? ORDER BY org_seq LIMIT ?`,
        [orgId, afterSeq, limit],
      );
    },
    async chunk(orgId, afterSeq, uptoSeq, limit) {
      return sql.all<ReceiptRecord>(
        `SELECT ${FULL} FROM receipts WHERE org_id = ? AND org_seq > ? AND org_seq <= ?
         ORDER BY org_seq LIMIT ?`,
        [orgId, afterSeq, uptoSeq, limit],
      );
    },
    async recent(orgId, beforeSeq, limit) {
      const before = beforeSeq === null ? '' : ' AND org_seq < ?';
      return sql.all<ReceiptRecord>(
        `SELECT ${FULL} FROM receipts WHERE org_id = ?${before} ORDER BY org_seq DESC LIMIT ?`,
        [orgId, ...(beforeSeq === null ? [] : [beforeSeq]), limit],
      );
    },
    async count(orgId, uptoSeq) {
      const row = await sql.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM receipts WHERE org_id = ? AND org_seq <= ?',
        [orgId, uptoSeq],
      );
      return row?.n ?? 0;
    },
    async byId(orgId, receiptId) {
      const row = await sql.get<ReceiptRecord>(
        `SELECT ${FULL} FROM receipts WHERE receipt_id = ? AND org_id = ?`,
        [receiptId, orgId],
      );
      return row ?? null;
    },
    async counts() {
      const rows = await sql.all<{ org_id: string; last: number | string }>(
        'SELECT org_id, MAX(org_seq) AS last FROM receipts GROUP BY org_id ORDER BY org_id',
      );
      return rows.map((r) => ({ org_id: r.org_id, count: Number(r.last) + 1 }));
    },
  };
}

/** A receipt's values in the order of the INSERT's columns. */
function rowOf(r: ReceiptRecord): SqlParam[] {
  return [
    r.receipt_id,
    r.org_id,
    r.org_seq,
    r.run_id,
    r.parent_hash,
    r.receipt_sha256,
    r.payload_text,
    r.share_token,
    r.created_at,
  ];
}
