/**
 * Migration 3: the router tables (docs/design.md#router). Secrets are kept only as SHA-256 hex
 * (workers.token_hash, jobs.lease_token_hash). Every lookup the repositories make has an index.
 */
export const ROUTER_SCHEMA_SQL = `
  CREATE TABLE router_members (
    member_id TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    activated_at TEXT,
    expires_at TEXT
  );
  CREATE INDEX router_members_expires ON router_members (expires_at);
  CREATE TABLE datasets (
    dataset_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT,
    status TEXT NOT NULL CHECK (status IN ('ready', 'staging')),
    created_at TEXT NOT NULL
  );
  CREATE INDEX datasets_page ON datasets (created_at, dataset_id);
  CREATE TABLE dataset_access (
    dataset_id TEXT NOT NULL REFERENCES datasets(dataset_id),
    member_id TEXT NOT NULL REFERENCES router_members(member_id),
    receipt_id TEXT NOT NULL UNIQUE,
    granted_at TEXT NOT NULL,
    PRIMARY KEY (dataset_id, member_id)
  );
  CREATE TABLE compute_nodes (
    node_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    node_class TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX compute_nodes_page ON compute_nodes (created_at, node_id);
  CREATE TABLE compute_quotes (
    quote_id TEXT PRIMARY KEY,
    member_id TEXT NOT NULL REFERENCES router_members(member_id),
    node_class TEXT NOT NULL,
    hours REAL NOT NULL,
    hourly_rate TEXT NOT NULL,
    amount TEXT NOT NULL,
    currency TEXT NOT NULL,
    receipt_id TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE INDEX compute_quotes_member ON compute_quotes (member_id, created_at);
  CREATE TABLE workers (
    worker_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    node_class TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    last_seen_at TEXT
  );
  CREATE INDEX workers_page ON workers (created_at, worker_id);
  CREATE INDEX workers_class ON workers (node_class);
  CREATE TABLE jobs (
    job_id TEXT PRIMARY KEY,
    member_id TEXT NOT NULL REFERENCES router_members(member_id),
    type TEXT NOT NULL,
    node_class TEXT NOT NULL,
    hours REAL NOT NULL,
    hourly_rate TEXT NOT NULL,
    estimated_amount TEXT NOT NULL,
    currency TEXT NOT NULL,
    input TEXT,
    status TEXT NOT NULL
      CHECK (status IN ('queued', 'leased', 'running', 'completed', 'failed', 'canceled')),
    attempt INTEGER NOT NULL CHECK (attempt >= 1),
    lease_epoch INTEGER NOT NULL CHECK (lease_epoch >= 0),
    lease_token_hash TEXT UNIQUE,
    lease_expires_at TEXT,
    worker_id TEXT REFERENCES workers(worker_id),
    progress REAL,
    message TEXT,
    log_lines INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    error TEXT,
    cost TEXT,
    billed_seconds INTEGER,
    created_at TEXT NOT NULL,
    accepted_at TEXT,
    finished_at TEXT,
    updated_at TEXT NOT NULL,
    -- A held lease always has a token, an expiry and a worker; no other status has a token.
    CHECK ((status IN ('leased', 'running')) OR lease_token_hash IS NULL),
    CHECK (lease_token_hash IS NULL OR (lease_expires_at IS NOT NULL AND worker_id IS NOT NULL))
  );
  CREATE INDEX jobs_queue ON jobs (node_class, status, created_at, job_id);
  CREATE INDEX jobs_lease_expiry ON jobs (status, lease_expires_at);
  CREATE INDEX jobs_worker ON jobs (worker_id, status);
  CREATE INDEX jobs_status ON jobs (status);
  CREATE TABLE job_logs (
    job_id TEXT NOT NULL REFERENCES jobs(job_id),
    line_no INTEGER NOT NULL,
    line TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (job_id, line_no)
  );
  CREATE TABLE job_artifacts (
    artifact_id TEXT PRIMARY KEY,
    job_id TEXT NOT NULL REFERENCES jobs(job_id),
    worker_id TEXT NOT NULL REFERENCES workers(worker_id),
    name TEXT NOT NULL,
    uri TEXT NOT NULL,
    sha256 TEXT,
    size INTEGER,
    reported_at TEXT NOT NULL
  );
  CREATE INDEX job_artifacts_job ON job_artifacts (job_id, reported_at, artifact_id);
  CREATE TABLE router_receipt_outbox (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    receipt_id TEXT NOT NULL UNIQUE,
    body TEXT NOT NULL
  );
`;
