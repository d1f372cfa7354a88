-- migration 1: identity
CREATE TABLE users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      );
      CREATE TABLE orgs (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE memberships (
        user_id TEXT PRIMARY KEY REFERENCES users(id),
        org_id TEXT NOT NULL REFERENCES orgs(id),
        role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
        created_at TEXT NOT NULL
      );
      CREATE INDEX memberships_org_page ON memberships (org_id, created_at, user_id);
      CREATE INDEX memberships_org_role ON memberships (org_id, role);
      CREATE TABLE links (
        id TEXT PRIMARY KEY,
        purpose TEXT NOT NULL CHECK (purpose IN ('sign_in', 'invite')),
        token_hash TEXT NOT NULL UNIQUE,
        email TEXT NOT NULL,
        org_id TEXT REFERENCES orgs(id),
        role TEXT CHECK (role IN ('owner', 'member')),
        created_by TEXT REFERENCES users(id),
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT,
        revoked_at TEXT
      );
      CREATE INDEX links_org_page ON links (org_id, purpose, created_at, id);
      CREATE INDEX links_email ON links (email, purpose, created_at);
      CREATE TABLE api_keys (
        key_id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL REFERENCES users(id),
        last_used_at TEXT,
        revoked_at TEXT
      );
      CREATE INDEX api_keys_org_page ON api_keys (org_id, created_at, key_id);
      CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL
      );
      CREATE INDEX projects_org_page ON projects (org_id, created_at, id);

-- migration 2: runs and receipts
CREATE TABLE flight_sheets (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        slug TEXT NOT NULL,
        version TEXT NOT NULL,
        -- MAJOR.MINOR.PATCH zero-padded, so the newest version is the greatest text
        version_key TEXT NOT NULL,
        lane TEXT NOT NULL,
        content TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        UNIQUE (org_id, slug, version)
      );
      CREATE INDEX flight_sheets_slug_version ON flight_sheets (org_id, slug, version_key);
      CREATE INDEX flight_sheets_org_page ON flight_sheets (org_id, created_at, id);
      CREATE INDEX flight_sheets_lane_page ON flight_sheets (org_id, lane, created_at, id);
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        project_id TEXT NOT NULL REFERENCES projects(id),
        flight_sheet_id TEXT NOT NULL,
        flight_sheet_slug TEXT NOT NULL,
        flight_sheet_version TEXT NOT NULL,
        flight_sheet_sha256 TEXT NOT NULL,
        title TEXT NOT NULL,
        agent_profile TEXT,
        state TEXT NOT NULL CHECK (state IN
          ('draft', 'audited', 'finalized', 'approved', 'rejected', 'escalated', 'receipted')),
        verdict TEXT,
        approval_decision TEXT CHECK (approval_decision IN ('approved', 'rejected', 'escalated')),
        approval_note TEXT,
        approval_decided_by TEXT,
        approval_decided_at TEXT,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX runs_org_page ON runs (org_id, created_at, id);
      CREATE INDEX runs_project_page ON runs (org_id, project_id, created_at, id);
      CREATE INDEX runs_state_page ON runs (org_id, state, created_at, id);
      CREATE INDEX runs_project_state_page ON runs (org_id, project_id, state, created_at, id);
      CREATE TABLE submissions (
        run_id TEXT PRIMARY KEY REFERENCES runs(id),
        org_id TEXT NOT NULL REFERENCES orgs(id),
        body_text TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        submitted_at TEXT NOT NULL
      );
      CREATE TABLE evidence (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        run_id TEXT NOT NULL REFERENCES runs(id),
        kind TEXT NOT NULL CHECK (kind IN ('note', 'text', 'url', 'log', 'json', 'file')),
        label TEXT NOT NULL,
        content TEXT,
        sha256 TEXT NOT NULL,
        size INTEGER NOT NULL,
        filename TEXT,
        content_type TEXT,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL
      );
      CREATE INDEX evidence_run ON evidence (org_id, run_id, created_at, id);
      CREATE INDEX evidence_file_blob ON evidence (sha256) WHERE kind = 'file';
      CREATE TABLE checks (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        run_id TEXT NOT NULL REFERENCES runs(id),
        position INTEGER NOT NULL,
        key TEXT NOT NULL,
        label TEXT NOT NULL,
        category TEXT NOT NULL,
        kind TEXT NOT NULL,
        severity TEXT NOT NULL,
        tier TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pass', 'flag', 'open', 'skip')),
        detail TEXT NOT NULL,
        UNIQUE (run_id, position)
      );
      CREATE INDEX checks_run ON checks (org_id, run_id, position);
      CREATE TABLE receipts (
        receipt_id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        org_seq INTEGER NOT NULL,
        run_id TEXT NOT NULL UNIQUE REFERENCES runs(id),
        parent_hash TEXT NOT NULL,
        receipt_sha256 TEXT NOT NULL,
        payload_text TEXT NOT NULL,
        share_token TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        UNIQUE (org_id, org_seq)
      );

-- migration 3: router
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

-- migration 4: tribunal
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

-- migration 5: incidents, payment events, dataset staging
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

-- migration 6: merkle trees
CREATE TABLE merkle_nodes (
    org_id TEXT NOT NULL REFERENCES orgs(id),
    log TEXT NOT NULL,
    level INTEGER NOT NULL CHECK (level >= 0 AND level < 64),
    idx INTEGER NOT NULL CHECK (idx >= 0),
    -- lowercase hex of the 32-byte SHA-256
    hash TEXT NOT NULL CHECK (length(hash) = 64),
    PRIMARY KEY (org_id, log, level, idx)
  );

-- migration 7: audit receipts
CREATE TABLE audit_receipts (
    receipt_id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES orgs(id),
    org_seq INTEGER NOT NULL,
    event_type TEXT NOT NULL,
    parent_hash TEXT NOT NULL,
    receipt_sha256 TEXT NOT NULL,
    payload_text TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (org_id, org_seq)
  );
  CREATE INDEX audit_receipts_by_type ON audit_receipts (org_id, event_type, org_seq);
  CREATE TABLE audit_sign_in_failures (
    org_id TEXT NOT NULL REFERENCES orgs(id),
    window_start TEXT NOT NULL,
    count INTEGER NOT NULL CHECK (count >= 1),
    first_at TEXT NOT NULL,
    last_at TEXT NOT NULL,
    PRIMARY KEY (org_id, window_start)
  );

-- migration 8: rate limit windows
CREATE TABLE rate_limit_windows (
    key TEXT NOT NULL,
    window_start TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    hits INTEGER NOT NULL CHECK (hits >= 1),
    PRIMARY KEY (key, window_start)
  );
  CREATE INDEX rate_limit_windows_expiry ON rate_limit_windows (expires_at);

-- migration 9: deployment state
CREATE TABLE deployment_state (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );

-- migration 10: share identity
ALTER TABLE orgs ADD COLUMN share_identity TEXT NOT NULL DEFAULT 'email'
    CHECK (share_identity IN ('email', 'id'));

-- migration 11: webhooks
CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES orgs(id),
    url TEXT NOT NULL,
    description TEXT,
    events_json TEXT NOT NULL,
    secret_sealed TEXT NOT NULL,
    previous_secret_sealed TEXT,
    previous_secret_until TEXT,
    enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    disabled_reason TEXT,
    failing_since TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX webhook_endpoints_by_org ON webhook_endpoints (org_id, created_at, id);
  CREATE TABLE webhook_subscriptions (
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    org_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    PRIMARY KEY (endpoint_id, event_type)
  );
  CREATE INDEX webhook_subscriptions_by_type ON webhook_subscriptions (org_id, event_type);
  CREATE TABLE webhook_events (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL,
    type TEXT NOT NULL,
    payload_text TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE webhook_deliveries (
    event_id TEXT NOT NULL REFERENCES webhook_events(id),
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    org_id TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL,
    next_attempt_at TEXT,
    lease_owner TEXT,
    lease_expires_at TEXT,
    last_status INTEGER,
    last_latency_ms INTEGER,
    last_error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (event_id, endpoint_id)
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
  CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at, event_id);

-- migration 12: witnessed checkpoints
CREATE TABLE witnessed_checkpoints (
    org_id TEXT NOT NULL REFERENCES orgs(id),
    log TEXT NOT NULL,
    size INTEGER NOT NULL CHECK (size >= 0),
    note TEXT NOT NULL,
    cosignatures INTEGER NOT NULL CHECK (cosignatures >= 0),
    witnessed_at TEXT NOT NULL,
    PRIMARY KEY (org_id, log, size)
  );
  CREATE TABLE witness_positions (
    org_id TEXT NOT NULL REFERENCES orgs(id),
    log TEXT NOT NULL,
    witness TEXT NOT NULL,
    size INTEGER NOT NULL CHECK (size >= 0),
    updated_at TEXT NOT NULL,
    PRIMARY KEY (org_id, log, witness)
  );
