import type { ColumnTypes } from '../dialect.js';

/** Migration 4: tribunal verdicts and their grading task queue (docs/design.md#tribunal). */
export const TRIBUNAL_SCHEMA = (t: ColumnTypes): string => `
  CREATE TABLE tribunal_verdicts (
    verdict_id ${t.text} PRIMARY KEY,
    org_id ${t.text} NOT NULL REFERENCES orgs(id),
    status ${t.text} NOT NULL CHECK (status IN ('queued', 'grading', 'complete', 'failed')),
    flight_sheet_id ${t.text},
    flight_sheet_slug ${t.text} NOT NULL,
    flight_sheet_version ${t.text} NOT NULL,
    flight_sheet_sha256 ${t.text} NOT NULL,
    flight_sheet_text ${t.text} NOT NULL,
    submission_text ${t.text} NOT NULL,
    submission_sha256 ${t.text} NOT NULL,
    evidence_text ${t.text} NOT NULL,
    checks_text ${t.text},
    verdict_text ${t.text},
    error ${t.text},
    graded_at ${t.text},
    history_text ${t.text} NOT NULL,
    created_by ${t.text} NOT NULL,
    created_at ${t.text} NOT NULL,
    updated_at ${t.text} NOT NULL
  );
  CREATE TABLE tribunal_tasks (
    task_id ${t.text} PRIMARY KEY,
    verdict_id ${t.text} NOT NULL REFERENCES tribunal_verdicts(verdict_id),
    status ${t.text} NOT NULL CHECK (status IN ('queued', 'claimed', 'completed', 'failed')),
    attempt ${t.int} NOT NULL CHECK (attempt >= 1),
    claim_epoch ${t.int} NOT NULL,
    claim_token_hash ${t.text},
    claim_expires_at ${t.text},
    runner_id ${t.text},
    message ${t.text},
    created_at ${t.text} NOT NULL,
    updated_at ${t.text} NOT NULL
  );
  CREATE INDEX tribunal_tasks_queue ON tribunal_tasks (status, created_at, task_id);
  CREATE INDEX tribunal_tasks_claims ON tribunal_tasks (status, claim_expires_at);
  -- One unfinished task per verdict: a regrade cannot run beside a grading.
  CREATE UNIQUE INDEX tribunal_tasks_open ON tribunal_tasks (verdict_id)
    WHERE status IN ('queued', 'claimed');
`;
