import type {
  JobsRepository,
  MembershipsRepository,
  ReceiptsRepository,
} from '@runledger/core/ports';
import { jobsRepository as sharedJobs } from '../sqlite/jobs.js';
import { membershipsRepository as sharedMemberships } from '../sqlite/memberships.js';
import { receiptsRepository as sharedReceipts } from '../sqlite/receipts.js';
import type { Sql } from '../sqlite/connection.js';

/**
 * The repositories whose SQLite versions rely on transactions running one at a time (a read that a
 * later write in the same transaction depends on). At READ COMMITTED they first take a lock held
 * until the transaction ends; every statement after it sees what the previous holder committed.
 * The constraints (UNIQUE(org_id, org_seq), job_logs' primary key) stay as the backstop.
 */
async function lockKey(sql: Sql, key: string): Promise<void> {
  await sql.run('SELECT pg_advisory_xact_lock(hashtext(?))', [key]);
}

/** Minting reads the chain head and appends after it: one minter per org at a time, so no fork. */
export function receiptsRepository(sql: Sql): ReceiptsRepository {
  const shared = sharedReceipts(sql);
  return {
    ...shared,
    async head(orgId) {
      await lockKey(sql, `receipts:${orgId}`);
      return shared.head(orgId);
    },
  };
}

/** The last-owner check counts owners then demotes or removes one: one such change per org at a time. */
export function membershipsRepository(sql: Sql): MembershipsRepository {
  const shared = sharedMemberships(sql);
  return {
    ...shared,
    async countOwners(orgId) {
      await lockKey(sql, `owners:${orgId}`);
      return shared.countOwners(orgId);
    },
  };
}

/** Log lines are numbered after the current maximum: one appender per job at a time. */
export function jobsRepository(sql: Sql): JobsRepository {
  const shared = sharedJobs(sql);
  return {
    ...shared,
    async appendLogs(jobId, lines, at) {
      await lockKey(sql, `job_logs:${jobId}`);
      return shared.appendLogs(jobId, lines, at);
    },
  };
}
