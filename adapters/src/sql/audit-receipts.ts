import type {
  AuditReceiptRecord,
  AuditReceiptsRepository,
  ChainHead,
  SignInFailureWindow,
  SignInFailuresRepository,
} from '@runledger/core/ports';
import type { Sql } from './sql.js';

const FULL =
  'receipt_id, org_id, org_seq, event_type, parent_hash, receipt_sha256, payload_text, created_at';

/** Every query walks UNIQUE(org_id, org_seq), or (org_id, event_type, org_seq) for one type. */
export function auditReceiptsRepository(sql: Sql): AuditReceiptsRepository {
  return {
    async insert(r) {
      await sql.run(`INSERT INTO audit_receipts (${FULL}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, [
        r.receipt_id,
        r.org_id,
        r.org_seq,
        r.event_type,
        r.parent_hash,
        r.receipt_sha256,
        r.payload_text,
        r.created_at,
      ]);
    },
    async head(orgId) {
      const row = await sql.get<ChainHead>(
        'SELECT org_seq, receipt_sha256 FROM audit_receipts WHERE org_id = ? ORDER BY org_seq DESC LIMIT 1',
        [orgId],
      );
      return row ?? null;
    },
    async list(orgId, afterSeq, limit, eventType) {
      const typed = eventType === null ? '' : ' AND event_type = ?';
      return sql.all<AuditReceiptRecord>(
        `SELECT ${FULL} FROM audit_receipts WHERE org_id = ?${typed} AND org_seq > ?
         ORDER BY org_seq LIMIT ?`,
        [orgId, ...(eventType === null ? [] : [eventType]), afterSeq, limit],
      );
    },
    async chunk(orgId, afterSeq, uptoSeq, limit) {
      return sql.all<AuditReceiptRecord>(
        `SELECT ${FULL} FROM audit_receipts WHERE org_id = ? AND org_seq > ? AND org_seq <= ?
         ORDER BY org_seq LIMIT ?`,
        [orgId, afterSeq, uptoSeq, limit],
      );
    },
    async count(orgId, uptoSeq) {
      const row = await sql.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM audit_receipts WHERE org_id = ? AND org_seq <= ?',
        [orgId, uptoSeq],
      );
      return Number(row?.n ?? 0);
    },
  };
}

export function signInFailuresRepository(sql: Sql): SignInFailuresRepository {
  return {
    async add(orgId, windowStart, at) {
      await sql.run(
        `INSERT INTO audit_sign_in_failures (org_id, window_start, count, first_at, last_at)
         VALUES (?, ?, 1, ?, ?)
         ON CONFLICT (org_id, window_start)
         DO UPDATE SET count = audit_sign_in_failures.count + 1, last_at = excluded.last_at`,
        [orgId, windowStart, at, at],
      );
    },
    async pending(orgId) {
      return sql.all<SignInFailureWindow>(
        `SELECT org_id, window_start, count, first_at, last_at FROM audit_sign_in_failures
         WHERE org_id = ? ORDER BY window_start`,
        [orgId],
      );
    },
    async remove(orgId, windowStart) {
      await sql.run('DELETE FROM audit_sign_in_failures WHERE org_id = ? AND window_start = ?', [
        orgId,
        windowStart,
      ]);
    },
  };
}
