/**
 * Migration 5: incidents, payment webhook events, and dataset staging (docs/design.md#tribunal).
 *
 * The dataset status CHECK gains pending and failed, which SQLite can only do by rebuilding the
 * table. Foreign keys stay on during migrations, so dataset_access is rebuilt too, pointing at the
 * new table, before the old ones are dropped; RENAME then carries that reference to `datasets`.
 * Datasets created with `staging: true` before this migration were 'staging' and become 'pending'.
 */
export const INTAKE_SCHEMA_SQL = `
  CREATE TABLE datasets_v5 (
    dataset_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT,
    status TEXT NOT NULL CHECK (status IN ('pending', 'staging', 'ready', 'failed')),
    error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  INSERT INTO datasets_v5 (dataset_id, name, description, status, error, created_at, updated_at)
    SELECT dataset_id, name, description,
           CASE status WHEN 'staging' THEN 'pending' ELSE status END,
           NULL, created_at, created_at
    FROM datasets;
  CREATE TABLE dataset_access_v5 (
    dataset_id TEXT NOT NULL REFERENCES datasets_v5(dataset_id),
    member_id TEXT NOT NULL REFERENCES router_members(member_id),
    receipt_id TEXT NOT NULL UNIQUE,
    granted_at TEXT NOT NULL,
    PRIMARY KEY (dataset_id, member_id)
  );
  INSERT INTO dataset_access_v5 SELECT dataset_id, member_id, receipt_id, granted_at FROM dataset_access;
  DROP TABLE dataset_access;
  DROP TABLE datasets;
  ALTER TABLE datasets_v5 RENAME TO datasets;
  ALTER TABLE dataset_access_v5 RENAME TO dataset_access;
  CREATE INDEX datasets_page ON datasets (created_at, dataset_id);

  CREATE TABLE incidents (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES orgs(id),
    run_id TEXT NOT NULL REFERENCES runs(id),
    kind TEXT NOT NULL CHECK (kind IN ('rogue', 'dark', 'policy_violation', 'recurring_flag')),
    note TEXT NOT NULL,
    rule_key TEXT,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    CHECK (kind <> 'recurring_flag' OR rule_key IS NOT NULL)
  );
  CREATE INDEX incidents_run ON incidents (org_id, run_id, created_at, id);
  -- The recurring_flag lookup: flagged keys of a project's earlier runs.
  CREATE INDEX checks_flagged ON checks (org_id, run_id, key) WHERE status = 'flag';

  CREATE TABLE payment_events (
    event_id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    member_id TEXT,
    amount TEXT,
    currency TEXT,
    outcome TEXT NOT NULL
      CHECK (outcome IN ('activated', 'ignored_type', 'unknown_member', 'amount_mismatch')),
    receipt_id TEXT UNIQUE,
    received_at TEXT NOT NULL
  );
`;
