import type {
  JobArtifactRecord,
  JobChange,
  JobGuard,
  JobRecord,
  JobsRepository,
  LeaseFence,
} from '@runledger/core/ports';
import type { Dialect } from './dialect.js';
import type { JobStatus } from '@runledger/core/schemas';
import type { Sql, SqlParam } from './sql.js';
import { fencedWhere, type FenceColumns } from './fence.js';

const JOB_FENCE_COLUMNS: FenceColumns = {
  id: 'job_id',
  epoch: 'lease_epoch',
  tokenHash: 'lease_token_hash',
  expiresAt: 'lease_expires_at',
  worker: 'worker_id',
};

const LEASE_COLUMNS = [
  'status',
  'attempt',
  'lease_epoch',
  'lease_token_hash',
  'lease_expires_at',
  'worker_id',
  'updated_at',
] as const;
const OPTIONAL_COLUMNS = [
  'progress',
  'message',
  'result',
  'error',
  'cost',
  'billed_seconds',
  'accepted_at',
  'finished_at',
] as const;

/** The SET clause of a fenced update; column names come from the fixed lists above, values are parameters. */
function setClause(change: JobChange): { sql: string; params: SqlParam[] } {
  const parts: string[] = [];
  const params: SqlParam[] = [];
  for (const column of LEASE_COLUMNS) {
    parts.push(`${column} = ?`);
    params.push(change[column]);
  }
  for (const column of OPTIONAL_COLUMNS) {
    const value = change[column];
    if (value !== undefined) {
      parts.push(`${column} = ?`);
      params.push(value);
    }
  }
  if (change.add_log_lines !== undefined) {
    parts.push('log_lines = log_lines + ?');
    params.push(change.add_log_lines);
  }
  return { sql: parts.join(', '), params };
}

/** The one conditional UPDATE of a job change: `change` where the row still meets `fence` and `guard`. */
function fencedUpdate(
  dialect: Dialect,
  jobId: string,
  fence: LeaseFence,
  guard: JobGuard,
  change: JobChange,
): { sql: string; params: SqlParam[] } {
  const where = fencedWhere(
    JOB_FENCE_COLUMNS,
    jobId,
    fence,
    { ...guard, epoch: guard.lease_epoch },
    dialect,
  );
  const set = setClause(change);
  return {
    sql: `UPDATE jobs SET ${set.sql} WHERE ${where.sql}`,
    params: [...set.params, ...where.params],
  };
}

export function jobsRepository(sql: Sql): JobsRepository {
  return {
    async insert(j) {
      await sql.run(
        `INSERT INTO jobs (job_id, member_id, type, node_class, hours, hourly_rate, estimated_amount,
                           currency, input, status, attempt, lease_epoch, lease_token_hash,
                           lease_expires_at, worker_id, progress, message, log_lines, result, error,
                           cost, billed_seconds, created_at, accepted_at, finished_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        jobRowOf(j),
      );
    },
    async byId(jobId) {
      return (await sql.get<JobRecord>('SELECT * FROM jobs WHERE job_id = ?', [jobId])) ?? null;
    },
    async oldestQueued(nodeClass, limit) {
      // Where rows are locked as they are picked, one is enough: it is this transaction's until it
      // ends, and more would keep other workers from jobs this one will not take.
      const { skipLocked } = sql.dialect;
      return sql.all<JobRecord>(
        `SELECT * FROM jobs WHERE node_class = ? AND status = 'queued'
         ORDER BY created_at, job_id LIMIT ?${skipLocked === null ? '' : ` ${skipLocked}`}`,
        [nodeClass, skipLocked === null ? limit : 1],
      );
    },
    async liveLeasesOf(workerId, now) {
      return sql.all<JobRecord>(
        `SELECT * FROM jobs WHERE worker_id = ? AND status IN ('leased', 'running')
           AND lease_expires_at > ? ORDER BY created_at, job_id`,
        [workerId, now],
      );
    },
    async expiredLeases(now, limit) {
      return sql.all<JobRecord>(
        `SELECT * FROM jobs WHERE status IN ('leased', 'running') AND lease_expires_at <= ?
         ORDER BY lease_expires_at, job_id LIMIT ?`,
        [now, limit],
      );
    },
    async applyFenced(jobId, fence, guard, change) {
      const update = fencedUpdate(sql.dialect, jobId, fence, guard, change);
      return (await sql.run(update.sql, update.params)).changes === 1;
    },
    async applyFencedEnding(jobId, fence, guard, change, refusal) {
      const update = fencedUpdate(sql.dialect, jobId, fence, guard, change);
      const { failUnchanged } = sql.dialect;
      if (failUnchanged === null) {
        if ((await sql.run(update.sql, update.params)).changes !== 1) throw refusal();
        return;
      }
      // The miss fails the statement itself, so the engine refuses the whole transaction even when
      // the ending writes and the end of the transaction left before this answer (see dialect.ts).
      try {
        await sql.run(failUnchanged.wrap(update.sql), update.params);
      } catch (error) {
        throw failUnchanged.missed(error) ? refusal() : error;
      }
    },
    appendLogs: (jobId, lines, at) => appendLogLines(sql, jobId, lines, at),
    async insertArtifact(a) {
      await sql.run(
        `INSERT INTO job_artifacts (artifact_id, job_id, worker_id, name, uri, sha256, size, reported_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [a.artifact_id, a.job_id, a.worker_id, a.name, a.uri, a.sha256, a.size, a.reported_at],
      );
    },
    async artifactsOf(jobId) {
      return sql.all<JobArtifactRecord>(
        'SELECT * FROM job_artifacts WHERE job_id = ? ORDER BY reported_at, artifact_id',
        [jobId],
      );
    },
    countByStatus: () => countJobsByStatus(sql),
  };
}

/** A job's values in the order of the INSERT's columns. */
function jobRowOf(j: JobRecord): SqlParam[] {
  return [
    j.job_id,
    j.member_id,
    j.type,
    j.node_class,
    j.hours,
    j.hourly_rate,
    j.estimated_amount,
    j.currency,
    j.input,
    j.status,
    j.attempt,
    j.lease_epoch,
    j.lease_token_hash,
    j.lease_expires_at,
    j.worker_id,
    j.progress,
    j.message,
    j.log_lines,
    j.result,
    j.error,
    j.cost,
    j.billed_seconds,
    j.created_at,
    j.accepted_at,
    j.finished_at,
    j.updated_at,
  ];
}

/** Appends log lines after the job's last line number. */
async function appendLogLines(sql: Sql, jobId: string, lines: readonly string[], at: string) {
  const row = await sql.get<{ n: number | null }>(
    'SELECT MAX(line_no) AS n FROM job_logs WHERE job_id = ?',
    [jobId],
  );
  let lineNo = row?.n ?? 0;
  for (const line of lines) {
    lineNo += 1;
    await sql.run('INSERT INTO job_logs (job_id, line_no, line, created_at) VALUES (?, ?, ?, ?)', [
      jobId,
      lineNo,
      line,
      at,
    ]);
  }
}

async function countJobsByStatus(sql: Sql): Promise<Record<JobStatus, number>> {
  const counts: Record<JobStatus, number> = {
    queued: 0,
    leased: 0,
    running: 0,
    completed: 0,
    failed: 0,
    canceled: 0,
  };
  const rows = await sql.all<{ status: JobStatus; n: number }>(
    'SELECT status, COUNT(*) AS n FROM jobs GROUP BY status',
  );
  for (const r of rows) counts[r.status] = r.n;
  return counts;
}
