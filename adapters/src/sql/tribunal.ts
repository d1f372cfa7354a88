import type {
  TribunalTaskRecord,
  TribunalTasksRepository,
  TribunalVerdictRecord,
  TribunalVerdictsRepository,
} from '@runledger/core/ports';
import type { Sql } from './sql.js';
import { fencedWhere, type FenceColumns } from './fence.js';

const TASK_FENCE_COLUMNS: FenceColumns = {
  id: 'task_id',
  epoch: 'claim_epoch',
  tokenHash: 'claim_token_hash',
  expiresAt: 'claim_expires_at',
};

interface VerdictRow extends Omit<TribunalVerdictRecord, 'checks' | 'verdict' | 'history'> {
  checks_text: string | null;
  verdict_text: string | null;
  history_text: string;
}

function fromRow(row: VerdictRow): TribunalVerdictRecord {
  const { checks_text, verdict_text, history_text, ...rest } = row;
  return {
    ...rest,
    checks: checks_text === null ? null : JSON.parse(checks_text),
    verdict: verdict_text === null ? null : JSON.parse(verdict_text),
    history: JSON.parse(history_text),
  };
}

const json = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

export function tribunalVerdictsRepository(sql: Sql): TribunalVerdictsRepository {
  return {
    async insert(v) {
      await sql.run(
        `INSERT INTO tribunal_verdicts (verdict_id, org_id, status, flight_sheet_id, flight_sheet_slug,
           flight_sheet_version, flight_sheet_sha256, flight_sheet_text, submission_text,
           submission_sha256, evidence_text, checks_text, verdict_text, error, graded_at,
           history_text, created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          v.verdict_id,
          v.org_id,
          v.status,
          v.flight_sheet_id,
          v.flight_sheet_slug,
          v.flight_sheet_version,
          v.flight_sheet_sha256,
          v.flight_sheet_text,
          v.submission_text,
          v.submission_sha256,
          v.evidence_text,
          json(v.checks),
          json(v.verdict),
          v.error,
          v.graded_at,
          JSON.stringify(v.history),
          v.created_by,
          v.created_at,
          v.updated_at,
        ],
      );
    },
    async get(orgId, verdictId) {
      const row = await sql.get<VerdictRow>(
        'SELECT * FROM tribunal_verdicts WHERE org_id = ? AND verdict_id = ?',
        [orgId, verdictId],
      );
      return row ? fromRow(row) : null;
    },
    async byId(verdictId) {
      const row = await sql.get<VerdictRow>(
        'SELECT * FROM tribunal_verdicts WHERE verdict_id = ?',
        [verdictId],
      );
      return row ? fromRow(row) : null;
    },
    async update(verdictId, expected, c) {
      const result = await sql.run(
        `UPDATE tribunal_verdicts SET status = ?, checks_text = ?, verdict_text = ?, error = ?,
           graded_at = ?, history_text = ?, updated_at = ?
         WHERE verdict_id = ? AND status = ?`,
        [
          c.status,
          json(c.checks),
          json(c.verdict),
          c.error,
          c.graded_at,
          JSON.stringify(c.history),
          c.updated_at,
          verdictId,
          expected,
        ],
      );
      return result.changes === 1;
    },
  };
}

export function tribunalTasksRepository(sql: Sql): TribunalTasksRepository {
  return {
    async insert(t) {
      await sql.run(
        `INSERT INTO tribunal_tasks (task_id, verdict_id, status, attempt, claim_epoch,
           claim_token_hash, claim_expires_at, runner_id, message, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          t.task_id,
          t.verdict_id,
          t.status,
          t.attempt,
          t.claim_epoch,
          t.claim_token_hash,
          t.claim_expires_at,
          t.runner_id,
          t.message,
          t.created_at,
          t.updated_at,
        ],
      );
    },
    async byId(taskId) {
      return (
        (await sql.get<TribunalTaskRecord>('SELECT * FROM tribunal_tasks WHERE task_id = ?', [
          taskId,
        ])) ?? null
      );
    },
    async oldestQueued(limit) {
      return sql.all<TribunalTaskRecord>(
        `SELECT * FROM tribunal_tasks WHERE status = 'queued' ORDER BY created_at, task_id LIMIT ?`,
        [limit],
      );
    },
    async expiredClaims(now, limit) {
      return sql.all<TribunalTaskRecord>(
        `SELECT * FROM tribunal_tasks WHERE status = 'claimed' AND claim_expires_at <= ?
         ORDER BY claim_expires_at, task_id LIMIT ?`,
        [now, limit],
      );
    },
    async applyFenced(taskId, fence, guard, c) {
      const where = fencedWhere(
        TASK_FENCE_COLUMNS,
        taskId,
        fence,
        {
          ...guard,
          epoch: guard.claim_epoch,
        },
        sql.dialect,
      );
      const result = await sql.run(
        `UPDATE tribunal_tasks SET status = ?, attempt = ?, claim_epoch = ?, claim_token_hash = ?,
           claim_expires_at = ?, runner_id = ?, message = ?, updated_at = ?
         WHERE ${where.sql}`,
        [
          c.status,
          c.attempt,
          c.claim_epoch,
          c.claim_token_hash,
          c.claim_expires_at,
          c.runner_id,
          c.message,
          c.updated_at,
          ...where.params,
        ],
      );
      return result.changes === 1;
    },
  };
}
