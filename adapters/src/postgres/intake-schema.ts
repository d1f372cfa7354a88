/**
 * Migration 5: incidents, payment webhook events, and dataset staging (docs/design.md#tribunal).
 *
 * Same end state as the SQLite migration 5, but PostgreSQL can alter a table in place: the dataset
 * status CHECK is replaced, the two new columns are added, and 'staging' rows become 'pending'.
 */
export const INTAKE_SCHEMA_SQL = `
  ALTER TABLE datasets DROP CONSTRAINT datasets_status_check;
  UPDATE datasets SET status = 'pending' WHERE status = 'staging';
  ALTER TABLE datasets
    ADD CONSTRAINT datasets_status_check CHECK (status IN ('pending', 'staging', 'ready', 'failed')),
    ADD COLUMN error TEXT COLLATE "C",
    ADD COLUMN updated_at TEXT COLLATE "C";
  UPDATE datasets SET updated_at = created_at;
  ALTER TABLE datasets ALTER COLUMN updated_at SET NOT NULL;

  CREATE TABLE incidents (
    id TEXT COLLATE "C" PRIMARY KEY,
    org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
    run_id TEXT COLLATE "C" NOT NULL REFERENCES runs(id),
    kind TEXT COLLATE "C" NOT NULL
      CHECK (kind IN ('rogue', 'dark', 'policy_violation', 'recurring_flag')),
    note TEXT COLLATE "C" NOT NULL,
    rule_key TEXT COLLATE "C",
    created_by TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    CHECK (kind <> 'recurring_flag' OR rule_key IS NOT NULL)
  );
  CREATE INDEX incidents_run ON incidents (org_id, run_id, created_at, id);
  -- The recurring_flag lookup: flagged keys of a project's earlier runs.
  CREATE INDEX checks_flagged ON checks (org_id, run_id, key) WHERE status = 'flag';

  CREATE TABLE payment_events (
    event_id TEXT COLLATE "C" PRIMARY KEY,
    type TEXT COLLATE "C" NOT NULL,
    member_id TEXT COLLATE "C",
    amount TEXT COLLATE "C",
    currency TEXT COLLATE "C",
    outcome TEXT COLLATE "C" NOT NULL
      CHECK (outcome IN ('activated', 'ignored_type', 'unknown_member', 'amount_mismatch')),
    receipt_id TEXT COLLATE "C" UNIQUE,
    received_at TEXT COLLATE "C" NOT NULL
  );
`;
