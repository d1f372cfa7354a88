/** Migration 4: tribunal verdicts and their grading task queue (docs/design.md#tribunal). */
export const TRIBUNAL_SCHEMA_SQL = `
  CREATE TABLE tribunal_verdicts (
    verdict_id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES orgs(id),
    status TEXT NOT NULL CHECK (status IN ('queued', 'grading', 'complete', 'failed')),
    flight_sheet_id TEXT,
    flight_sheet_slug TEXT NOT NULL,
    flight_sheet_version TEXT NOT NULL,
    flight_sheet_sha256 TEXT NOT NULL,
    flight_sheet_text TEXT NOT NULL,
    submission_text TEXT NOT NULL,
    submission_sha256 TEXT NOT NULL,
    evidence_text TEXT NOT NULL,
    checks_text TEXT,
    verdict_text TEXT,
    error TEXT,
    graded_at TEXT,
    history_text TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE tribunal_tasks (
    task_id TEXT PRIMARY KEY,
    verdict_id TEXT NOT NULL REFERENCES tribunal_verdicts(verdict_id),
    status TEXT NOT NULL CHECK (status IN ('queued', 'claimed', 'completed', 'failed')),
    attempt INTEGER NOT NULL CHECK (attempt >= 1),
    claim_epoch INTEGER NOT NULL,
    claim_token_hash TEXT,
    claim_expires_at TEXT,
    runner_id TEXT,
    message TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX tribunal_tasks_queue ON tribunal_tasks (status, created_at, task_id);
  CREATE INDEX tribunal_tasks_claims ON tribunal_tasks (status, claim_expires_at);
  -- One unfinished task per verdict: a regrade cannot run beside a grading.
  CREATE UNIQUE INDEX tribunal_tasks_open ON tribunal_tasks (verdict_id)
    WHERE status IN ('queued', 'claimed');
`;
