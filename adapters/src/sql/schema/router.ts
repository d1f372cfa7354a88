import type { ColumnTypes } from '../dialect.js';

/**
 * Migration 3: the router tables (docs/design.md#router). Secrets are kept only as SHA-256 hex
 * (workers.token_hash, jobs.lease_token_hash). Every lookup the repositories make has an index.
 */
export const ROUTER_SCHEMA = (t: ColumnTypes): string =>
  membershipAndComputeTables(t) + jobTables(t);

/** Members, datasets, compute nodes and quotes, workers. */
const membershipAndComputeTables = (t: ColumnTypes): string => `
  CREATE TABLE router_members (
    member_id ${t.text} PRIMARY KEY,
    email ${t.text} NOT NULL,
    name ${t.text} NOT NULL,
    created_at ${t.text} NOT NULL,
    activated_at ${t.text},
    expires_at ${t.text}
  );
  CREATE INDEX router_members_expires ON router_members (expires_at);
  CREATE TABLE datasets (
    dataset_id ${t.text} PRIMARY KEY,
    name ${t.text} NOT NULL,
    description ${t.text},
    status ${t.text} NOT NULL CHECK (status IN ('ready', 'staging')),
    created_at ${t.text} NOT NULL
  );
  CREATE INDEX datasets_page ON datasets (created_at, dataset_id);
  CREATE TABLE dataset_access (
    dataset_id ${t.text} NOT NULL REFERENCES datasets(dataset_id),
    member_id ${t.text} NOT NULL REFERENCES router_members(member_id),
    receipt_id ${t.text} NOT NULL UNIQUE,
    granted_at ${t.text} NOT NULL,
    PRIMARY KEY (dataset_id, member_id)
  );
  CREATE TABLE compute_nodes (
    node_id ${t.text} PRIMARY KEY,
    name ${t.text} NOT NULL,
    node_class ${t.text} NOT NULL,
    status ${t.text} NOT NULL,
    created_at ${t.text} NOT NULL
  );
  CREATE INDEX compute_nodes_page ON compute_nodes (created_at, node_id);
  CREATE TABLE compute_quotes (
    quote_id ${t.text} PRIMARY KEY,
    member_id ${t.text} NOT NULL REFERENCES router_members(member_id),
    node_class ${t.text} NOT NULL,
    hours ${t.real} NOT NULL,
    hourly_rate ${t.text} NOT NULL,
    amount ${t.text} NOT NULL,
    currency ${t.text} NOT NULL,
    receipt_id ${t.text} NOT NULL UNIQUE,
    created_at ${t.text} NOT NULL
  );
  CREATE INDEX compute_quotes_member ON compute_quotes (member_id, created_at);
  CREATE TABLE workers (
    worker_id ${t.text} PRIMARY KEY,
    name ${t.text} NOT NULL,
    node_class ${t.text} NOT NULL,
    token_hash ${t.text} NOT NULL UNIQUE,
    created_at ${t.text} NOT NULL,
    last_seen_at ${t.text}
  );
  CREATE INDEX workers_page ON workers (created_at, worker_id);
  CREATE INDEX workers_class ON workers (node_class);
`;

/** Jobs, their logs and artifacts, and the receipt outbox. */
const jobTables = (t: ColumnTypes): string => `  CREATE TABLE jobs (
    job_id ${t.text} PRIMARY KEY,
    member_id ${t.text} NOT NULL REFERENCES router_members(member_id),
    type ${t.text} NOT NULL,
    node_class ${t.text} NOT NULL,
    hours ${t.real} NOT NULL,
    hourly_rate ${t.text} NOT NULL,
    estimated_amount ${t.text} NOT NULL,
    currency ${t.text} NOT NULL,
    input ${t.text},
    status ${t.text} NOT NULL
      CHECK (status IN ('queued', 'leased', 'running', 'completed', 'failed', 'canceled')),
    attempt ${t.int} NOT NULL CHECK (attempt >= 1),
    lease_epoch ${t.int} NOT NULL CHECK (lease_epoch >= 0),
    lease_token_hash ${t.text} UNIQUE,
    lease_expires_at ${t.text},
    worker_id ${t.text} REFERENCES workers(worker_id),
    progress ${t.real},
    message ${t.text},
    log_lines ${t.int} NOT NULL DEFAULT 0,
    result ${t.text},
    error ${t.text},
    cost ${t.text},
    billed_seconds ${t.int},
    created_at ${t.text} NOT NULL,
    accepted_at ${t.text},
    finished_at ${t.text},
    updated_at ${t.text} NOT NULL,
    -- A held lease always has a token, an expiry and a worker; no other status has a token.
    CHECK ((status IN ('leased', 'running')) OR lease_token_hash IS NULL),
    CHECK (lease_token_hash IS NULL OR (lease_expires_at IS NOT NULL AND worker_id IS NOT NULL))
  );
  CREATE INDEX jobs_queue ON jobs (node_class, status, created_at, job_id);
  CREATE INDEX jobs_lease_expiry ON jobs (status, lease_expires_at);
  CREATE INDEX jobs_worker ON jobs (worker_id, status);
  CREATE INDEX jobs_status ON jobs (status);
  CREATE TABLE job_logs (
    job_id ${t.text} NOT NULL REFERENCES jobs(job_id),
    line_no ${t.int} NOT NULL,
    line ${t.text} NOT NULL,
    created_at ${t.text} NOT NULL,
    PRIMARY KEY (job_id, line_no)
  );
  CREATE TABLE job_artifacts (
    artifact_id ${t.text} PRIMARY KEY,
    job_id ${t.text} NOT NULL REFERENCES jobs(job_id),
    worker_id ${t.text} NOT NULL REFERENCES workers(worker_id),
    name ${t.text} NOT NULL,
    uri ${t.text} NOT NULL,
    sha256 ${t.text},
    size ${t.int},
    reported_at ${t.text} NOT NULL
  );
  CREATE INDEX job_artifacts_job ON job_artifacts (job_id, reported_at, artifact_id);
  CREATE TABLE router_receipt_outbox (
    position ${t.serialKey},
    receipt_id ${t.text} NOT NULL UNIQUE,
    body ${t.text} NOT NULL
  );
`;
