import type {
  SubmissionHash,
  SubmissionRecord,
  SubmissionsRepository,
} from '@runledger/core/ports';
import type { Sql } from './sql.js';
import { selectByIds } from './id-lists.js';

/** The hashes of a batch's submissions: never their bodies, which a mint does not read. */
const submissionHashesSql = (ids: string): string =>
  `SELECT run_id, sha256 FROM submissions WHERE org_id = ? AND run_id IN (${ids})`;

export function submissionsRepository(sql: Sql): SubmissionsRepository {
  return {
    async put(s) {
      await sql.run(
        `INSERT INTO submissions (run_id, org_id, body_text, sha256, submitted_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (run_id) DO UPDATE SET body_text = excluded.body_text, sha256 = excluded.sha256,
           submitted_at = excluded.submitted_at
         WHERE submissions.org_id = excluded.org_id`,
        [s.run_id, s.org_id, s.body_text, s.sha256, s.submitted_at],
      );
    },
    async get(orgId, runId) {
      const row = await sql.get<SubmissionRecord>(
        'SELECT * FROM submissions WHERE run_id = ? AND org_id = ?',
        [runId, orgId],
      );
      return row ?? null;
    },
    hashesOf(orgId, runIds) {
      return selectByIds<SubmissionHash>(sql, runIds, [orgId], submissionHashesSql);
    },
  };
}
