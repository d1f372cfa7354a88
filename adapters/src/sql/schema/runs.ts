import type { ColumnTypes } from '../dialect.js';

/** Migration 2: flight sheets, runs, submissions, evidence, checks and the receipt chain. */
export const RUNS_SCHEMA = (t: ColumnTypes): string =>
  sheetAndRunTables(t) + runInputAndReceiptTables(t);

/** Flight sheets and runs. */
const sheetAndRunTables = (t: ColumnTypes): string => `
      CREATE TABLE flight_sheets (
        id ${t.text} PRIMARY KEY,
        org_id ${t.text} NOT NULL REFERENCES orgs(id),
        slug ${t.text} NOT NULL,
        version ${t.text} NOT NULL,
        -- MAJOR.MINOR.PATCH zero-padded, so the newest version is the greatest text
        version_key ${t.text} NOT NULL,
        lane ${t.text} NOT NULL,
        content ${t.text} NOT NULL,
        sha256 ${t.text} NOT NULL,
        created_at ${t.text} NOT NULL,
        created_by ${t.text} NOT NULL,
        UNIQUE (org_id, slug, version)
      );
      CREATE INDEX flight_sheets_slug_version ON flight_sheets (org_id, slug, version_key);
      CREATE INDEX flight_sheets_org_page ON flight_sheets (org_id, created_at, id);
      CREATE INDEX flight_sheets_lane_page ON flight_sheets (org_id, lane, created_at, id);
      CREATE TABLE runs (
        id ${t.text} PRIMARY KEY,
        org_id ${t.text} NOT NULL REFERENCES orgs(id),
        project_id ${t.text} NOT NULL REFERENCES projects(id),
        flight_sheet_id ${t.text} NOT NULL,
        flight_sheet_slug ${t.text} NOT NULL,
        flight_sheet_version ${t.text} NOT NULL,
        flight_sheet_sha256 ${t.text} NOT NULL,
        title ${t.text} NOT NULL,
        agent_profile ${t.text},
        state ${t.text} NOT NULL CHECK (state IN
          ('draft', 'audited', 'finalized', 'approved', 'rejected', 'escalated', 'receipted')),
        verdict ${t.text},
        approval_decision ${t.text} CHECK (approval_decision IN ('approved', 'rejected', 'escalated')),
        approval_note ${t.text},
        approval_decided_by ${t.text},
        approval_decided_at ${t.text},
        created_at ${t.text} NOT NULL,
        created_by ${t.text} NOT NULL,
        updated_at ${t.text} NOT NULL
      );
      CREATE INDEX runs_org_page ON runs (org_id, created_at, id);
      CREATE INDEX runs_project_page ON runs (org_id, project_id, created_at, id);
      CREATE INDEX runs_state_page ON runs (org_id, state, created_at, id);
      CREATE INDEX runs_project_state_page ON runs (org_id, project_id, state, created_at, id);
`;

/** Submissions, evidence, checks and the receipt chain. */
const runInputAndReceiptTables = (t: ColumnTypes): string => `      CREATE TABLE submissions (
        run_id ${t.text} PRIMARY KEY REFERENCES runs(id),
        org_id ${t.text} NOT NULL REFERENCES orgs(id),
        body_text ${t.text} NOT NULL,
        sha256 ${t.text} NOT NULL,
        submitted_at ${t.text} NOT NULL
      );
      CREATE TABLE evidence (
        id ${t.text} PRIMARY KEY,
        org_id ${t.text} NOT NULL REFERENCES orgs(id),
        run_id ${t.text} NOT NULL REFERENCES runs(id),
        kind ${t.text} NOT NULL CHECK (kind IN ('note', 'text', 'url', 'log', 'json', 'file')),
        label ${t.text} NOT NULL,
        content ${t.text},
        sha256 ${t.text} NOT NULL,
        size ${t.int} NOT NULL,
        filename ${t.text},
        content_type ${t.text},
        created_at ${t.text} NOT NULL,
        created_by ${t.text} NOT NULL
      );
      CREATE INDEX evidence_run ON evidence (org_id, run_id, created_at, id);
      CREATE INDEX evidence_file_blob ON evidence (sha256) WHERE kind = 'file';
      CREATE TABLE checks (
        id ${t.text} PRIMARY KEY,
        org_id ${t.text} NOT NULL REFERENCES orgs(id),
        run_id ${t.text} NOT NULL REFERENCES runs(id),
        position ${t.int} NOT NULL,
        key ${t.text} NOT NULL,
        label ${t.text} NOT NULL,
        category ${t.text} NOT NULL,
        kind ${t.text} NOT NULL,
        severity ${t.text} NOT NULL,
        tier ${t.text} NOT NULL,
        status ${t.text} NOT NULL CHECK (status IN ('pass', 'flag', 'open', 'skip')),
        detail ${t.text} NOT NULL,
        UNIQUE (run_id, position)
      );
      CREATE INDEX checks_run ON checks (org_id, run_id, position);
      CREATE TABLE receipts (
        receipt_id ${t.text} PRIMARY KEY,
        org_id ${t.text} NOT NULL REFERENCES orgs(id),
        org_seq ${t.int} NOT NULL,
        run_id ${t.text} NOT NULL UNIQUE REFERENCES runs(id),
        parent_hash ${t.text} NOT NULL,
        receipt_sha256 ${t.text} NOT NULL,
        payload_text ${t.text} NOT NULL,
        share_token ${t.text} NOT NULL UNIQUE,
        created_at ${t.text} NOT NULL,
        UNIQUE (org_id, org_seq)
      );
    `;
