-- migration 1: identity
CREATE TABLE users (
        id TEXT COLLATE "C" PRIMARY KEY,
        email TEXT COLLATE "C" NOT NULL UNIQUE,
        created_at TEXT COLLATE "C" NOT NULL
      );
      CREATE TABLE orgs (
        id TEXT COLLATE "C" PRIMARY KEY,
        name TEXT COLLATE "C" NOT NULL,
        created_at TEXT COLLATE "C" NOT NULL
      );
      CREATE TABLE memberships (
        user_id TEXT COLLATE "C" PRIMARY KEY REFERENCES users(id),
        org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
        role TEXT COLLATE "C" NOT NULL CHECK (role IN ('owner', 'member')),
        created_at TEXT COLLATE "C" NOT NULL
      );
      CREATE INDEX memberships_org_page ON memberships (org_id, created_at, user_id);
      CREATE INDEX memberships_org_role ON memberships (org_id, role);
      CREATE TABLE links (
        id TEXT COLLATE "C" PRIMARY KEY,
        purpose TEXT COLLATE "C" NOT NULL CHECK (purpose IN ('sign_in', 'invite')),
        token_hash TEXT COLLATE "C" NOT NULL UNIQUE,
        email TEXT COLLATE "C" NOT NULL,
        org_id TEXT COLLATE "C" REFERENCES orgs(id),
        role TEXT COLLATE "C" CHECK (role IN ('owner', 'member')),
        created_by TEXT COLLATE "C" REFERENCES users(id),
        created_at TEXT COLLATE "C" NOT NULL,
        expires_at TEXT COLLATE "C" NOT NULL,
        used_at TEXT COLLATE "C",
        revoked_at TEXT COLLATE "C"
      );
      CREATE INDEX links_org_page ON links (org_id, purpose, created_at, id);
      CREATE INDEX links_email ON links (email, purpose, created_at);
      CREATE TABLE api_keys (
        key_id TEXT COLLATE "C" PRIMARY KEY,
        org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
        name TEXT COLLATE "C" NOT NULL,
        prefix TEXT COLLATE "C" NOT NULL,
        secret_hash TEXT COLLATE "C" NOT NULL,
        created_at TEXT COLLATE "C" NOT NULL,
        created_by TEXT COLLATE "C" NOT NULL REFERENCES users(id),
        last_used_at TEXT COLLATE "C",
        revoked_at TEXT COLLATE "C"
      );
      CREATE INDEX api_keys_org_page ON api_keys (org_id, created_at, key_id);
      CREATE TABLE projects (
        id TEXT COLLATE "C" PRIMARY KEY,
        org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
        name TEXT COLLATE "C" NOT NULL,
        created_at TEXT COLLATE "C" NOT NULL,
        created_by TEXT COLLATE "C" NOT NULL
      );
      CREATE INDEX projects_org_page ON projects (org_id, created_at, id);

-- migration 2: runs and receipts
CREATE TABLE flight_sheets (
        id TEXT COLLATE "C" PRIMARY KEY,
        org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
        slug TEXT COLLATE "C" NOT NULL,
        version TEXT COLLATE "C" NOT NULL,
        -- MAJOR.MINOR.PATCH zero-padded, so the newest version is the greatest text
        version_key TEXT COLLATE "C" NOT NULL,
        lane TEXT COLLATE "C" NOT NULL,
        content TEXT COLLATE "C" NOT NULL,
        sha256 TEXT COLLATE "C" NOT NULL,
        created_at TEXT COLLATE "C" NOT NULL,
        created_by TEXT COLLATE "C" NOT NULL,
        UNIQUE (org_id, slug, version)
      );
      CREATE INDEX flight_sheets_slug_version ON flight_sheets (org_id, slug, version_key);
      CREATE INDEX flight_sheets_org_page ON flight_sheets (org_id, created_at, id);
      CREATE INDEX flight_sheets_lane_page ON flight_sheets (org_id, lane, created_at, id);
      CREATE TABLE runs (
        id TEXT COLLATE "C" PRIMARY KEY,
        org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
        project_id TEXT COLLATE "C" NOT NULL REFERENCES projects(id),
        flight_sheet_id TEXT COLLATE "C" NOT NULL,
        flight_sheet_slug TEXT COLLATE "C" NOT NULL,
        flight_sheet_version TEXT COLLATE "C" NOT NULL,
        flight_sheet_sha256 TEXT COLLATE "C" NOT NULL,
        title TEXT COLLATE "C" NOT NULL,
        agent_profile TEXT COLLATE "C",
        state TEXT COLLATE "C" NOT NULL CHECK (state IN
          ('draft', 'audited', 'finalized', 'approved', 'rejected', 'escalated', 'receipted')),
        verdict TEXT COLLATE "C",
        approval_decision TEXT COLLATE "C" CHECK (approval_decision IN ('approved', 'rejected', 'escalated')),
        approval_note TEXT COLLATE "C",
        approval_decided_by TEXT COLLATE "C",
        approval_decided_at TEXT COLLATE "C",
        created_at TEXT COLLATE "C" NOT NULL,
        created_by TEXT COLLATE "C" NOT NULL,
        updated_at TEXT COLLATE "C" NOT NULL
      );
      CREATE INDEX runs_org_page ON runs (org_id, created_at, id);
      CREATE INDEX runs_project_page ON runs (org_id, project_id, created_at, id);
      CREATE INDEX runs_state_page ON runs (org_id, state, created_at, id);
      CREATE INDEX runs_project_state_page ON runs (org_id, project_id, state, created_at, id);
      CREATE TABLE submissions (
        run_id TEXT COLLATE "C" PRIMARY KEY REFERENCES runs(id),
        org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
        body_text TEXT COLLATE "C" NOT NULL,
        sha256 TEXT COLLATE "C" NOT NULL,
        submitted_at TEXT COLLATE "C" NOT NULL
      );
      CREATE TABLE evidence (
        id TEXT COLLATE "C" PRIMARY KEY,
        org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
        run_id TEXT COLLATE "C" NOT NULL REFERENCES runs(id),
        kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('note', 'text', 'url', 'log', 'json', 'file')),
        label TEXT COLLATE "C" NOT NULL,
        content TEXT COLLATE "C",
        sha256 TEXT COLLATE "C" NOT NULL,
        size BIGINT NOT NULL,
        filename TEXT COLLATE "C",
        content_type TEXT COLLATE "C",
        created_at TEXT COLLATE "C" NOT NULL,
        created_by TEXT COLLATE "C" NOT NULL
      );
      CREATE INDEX evidence_run ON evidence (org_id, run_id, created_at, id);
      CREATE INDEX evidence_file_blob ON evidence (sha256) WHERE kind = 'file';
      CREATE TABLE checks (
        id TEXT COLLATE "C" PRIMARY KEY,
        org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
        run_id TEXT COLLATE "C" NOT NULL REFERENCES runs(id),
        position BIGINT NOT NULL,
        key TEXT COLLATE "C" NOT NULL,
        label TEXT COLLATE "C" NOT NULL,
        category TEXT COLLATE "C" NOT NULL,
        kind TEXT COLLATE "C" NOT NULL,
        severity TEXT COLLATE "C" NOT NULL,
        tier TEXT COLLATE "C" NOT NULL,
        status TEXT COLLATE "C" NOT NULL CHECK (status IN ('pass', 'flag', 'open', 'skip')),
        detail TEXT COLLATE "C" NOT NULL,
        UNIQUE (run_id, position)
      );
      CREATE INDEX checks_run ON checks (org_id, run_id, position);
      CREATE TABLE receipts (
        receipt_id TEXT COLLATE "C" PRIMARY KEY,
        org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
        org_seq BIGINT NOT NULL,
        run_id TEXT COLLATE "C" NOT NULL UNIQUE REFERENCES runs(id),
        parent_hash TEXT COLLATE "C" NOT NULL,
        receipt_sha256 TEXT COLLATE "C" NOT NULL,
        payload_text TEXT COLLATE "C" NOT NULL,
        share_token TEXT COLLATE "C" NOT NULL UNIQUE,
        created_at TEXT COLLATE "C" NOT NULL,
        UNIQUE (org_id, org_seq)
      );

-- migration 3: router
CREATE TABLE router_members (
    member_id TEXT COLLATE "C" PRIMARY KEY,
    email TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    activated_at TEXT COLLATE "C",
    expires_at TEXT COLLATE "C"
  );
  CREATE INDEX router_members_expires ON router_members (expires_at);
  CREATE TABLE datasets (
    dataset_id TEXT COLLATE "C" PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL,
    description TEXT COLLATE "C",
    status TEXT COLLATE "C" NOT NULL CHECK (status IN ('ready', 'staging')),
    created_at TEXT COLLATE "C" NOT NULL
  );
  CREATE INDEX datasets_page ON datasets (created_at, dataset_id);
  CREATE TABLE dataset_access (
    dataset_id TEXT COLLATE "C" NOT NULL REFERENCES datasets(dataset_id),
    member_id TEXT COLLATE "C" NOT NULL REFERENCES router_members(member_id),
    receipt_id TEXT COLLATE "C" NOT NULL UNIQUE,
    granted_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (dataset_id, member_id)
  );
  CREATE TABLE compute_nodes (
    node_id TEXT COLLATE "C" PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL,
    node_class TEXT COLLATE "C" NOT NULL,
    status TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL
  );
  CREATE INDEX compute_nodes_page ON compute_nodes (created_at, node_id);
  CREATE TABLE compute_quotes (
    quote_id TEXT COLLATE "C" PRIMARY KEY,
    member_id TEXT COLLATE "C" NOT NULL REFERENCES router_members(member_id),
    node_class TEXT COLLATE "C" NOT NULL,
    hours DOUBLE PRECISION NOT NULL,
    hourly_rate TEXT COLLATE "C" NOT NULL,
    amount TEXT COLLATE "C" NOT NULL,
    currency TEXT COLLATE "C" NOT NULL,
    receipt_id TEXT COLLATE "C" NOT NULL UNIQUE,
    created_at TEXT COLLATE "C" NOT NULL
  );
  CREATE INDEX compute_quotes_member ON compute_quotes (member_id, created_at);
  CREATE TABLE workers (
    worker_id TEXT COLLATE "C" PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL,
    node_class TEXT COLLATE "C" NOT NULL,
    token_hash TEXT COLLATE "C" NOT NULL UNIQUE,
    created_at TEXT COLLATE "C" NOT NULL,
    last_seen_at TEXT COLLATE "C"
  );
  CREATE INDEX workers_page ON workers (created_at, worker_id);
  CREATE INDEX workers_class ON workers (node_class);
  CREATE TABLE jobs (
    job_id TEXT COLLATE "C" PRIMARY KEY,
    member_id TEXT COLLATE "C" NOT NULL REFERENCES router_members(member_id),
    type TEXT COLLATE "C" NOT NULL,
    node_class TEXT COLLATE "C" NOT NULL,
    hours DOUBLE PRECISION NOT NULL,
    hourly_rate TEXT COLLATE "C" NOT NULL,
    estimated_amount TEXT COLLATE "C" NOT NULL,
    currency TEXT COLLATE "C" NOT NULL,
    input TEXT COLLATE "C",
    status TEXT COLLATE "C" NOT NULL
      CHECK (status IN ('queued', 'leased', 'running', 'completed', 'failed', 'canceled')),
    attempt BIGINT NOT NULL CHECK (attempt >= 1),
    lease_epoch BIGINT NOT NULL CHECK (lease_epoch >= 0),
    lease_token_hash TEXT COLLATE "C" UNIQUE,
    lease_expires_at TEXT COLLATE "C",
    worker_id TEXT COLLATE "C" REFERENCES workers(worker_id),
    progress DOUBLE PRECISION,
    message TEXT COLLATE "C",
    log_lines BIGINT NOT NULL DEFAULT 0,
    result TEXT COLLATE "C",
    error TEXT COLLATE "C",
    cost TEXT COLLATE "C",
    billed_seconds BIGINT,
    created_at TEXT COLLATE "C" NOT NULL,
    accepted_at TEXT COLLATE "C",
    finished_at TEXT COLLATE "C",
    updated_at TEXT COLLATE "C" NOT NULL,
    -- A held lease always has a token, an expiry and a worker; no other status has a token.
    CHECK ((status IN ('leased', 'running')) OR lease_token_hash IS NULL),
    CHECK (lease_token_hash IS NULL OR (lease_expires_at IS NOT NULL AND worker_id IS NOT NULL))
  );
  CREATE INDEX jobs_queue ON jobs (node_class, status, created_at, job_id);
  CREATE INDEX jobs_lease_expiry ON jobs (status, lease_expires_at);
  CREATE INDEX jobs_worker ON jobs (worker_id, status);
  CREATE INDEX jobs_status ON jobs (status);
  CREATE TABLE job_logs (
    job_id TEXT COLLATE "C" NOT NULL REFERENCES jobs(job_id),
    line_no BIGINT NOT NULL,
    line TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (job_id, line_no)
  );
  CREATE TABLE job_artifacts (
    artifact_id TEXT COLLATE "C" PRIMARY KEY,
    job_id TEXT COLLATE "C" NOT NULL REFERENCES jobs(job_id),
    worker_id TEXT COLLATE "C" NOT NULL REFERENCES workers(worker_id),
    name TEXT COLLATE "C" NOT NULL,
    uri TEXT COLLATE "C" NOT NULL,
    sha256 TEXT COLLATE "C",
    size BIGINT,
    reported_at TEXT COLLATE "C" NOT NULL
  );
  CREATE INDEX job_artifacts_job ON job_artifacts (job_id, reported_at, artifact_id);
  CREATE TABLE router_receipt_outbox (
    position BIGSERIAL PRIMARY KEY,
    receipt_id TEXT COLLATE "C" NOT NULL UNIQUE,
    body TEXT COLLATE "C" NOT NULL
  );

-- migration 4: tribunal
CREATE TABLE tribunal_verdicts (
    verdict_id TEXT COLLATE "C" PRIMARY KEY,
    org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
    status TEXT COLLATE "C" NOT NULL CHECK (status IN ('queued', 'grading', 'complete', 'failed')),
    flight_sheet_id TEXT COLLATE "C",
    flight_sheet_slug TEXT COLLATE "C" NOT NULL,
    flight_sheet_version TEXT COLLATE "C" NOT NULL,
    flight_sheet_sha256 TEXT COLLATE "C" NOT NULL,
    flight_sheet_text TEXT COLLATE "C" NOT NULL,
    submission_text TEXT COLLATE "C" NOT NULL,
    submission_sha256 TEXT COLLATE "C" NOT NULL,
    evidence_text TEXT COLLATE "C" NOT NULL,
    checks_text TEXT COLLATE "C",
    verdict_text TEXT COLLATE "C",
    error TEXT COLLATE "C",
    graded_at TEXT COLLATE "C",
    history_text TEXT COLLATE "C" NOT NULL,
    created_by TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL
  );
  CREATE TABLE tribunal_tasks (
    task_id TEXT COLLATE "C" PRIMARY KEY,
    verdict_id TEXT COLLATE "C" NOT NULL REFERENCES tribunal_verdicts(verdict_id),
    status TEXT COLLATE "C" NOT NULL CHECK (status IN ('queued', 'claimed', 'completed', 'failed')),
    attempt BIGINT NOT NULL CHECK (attempt >= 1),
    claim_epoch BIGINT NOT NULL,
    claim_token_hash TEXT COLLATE "C",
    claim_expires_at TEXT COLLATE "C",
    runner_id TEXT COLLATE "C",
    message TEXT COLLATE "C",
    created_at TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL
  );
  CREATE INDEX tribunal_tasks_queue ON tribunal_tasks (status, created_at, task_id);
  CREATE INDEX tribunal_tasks_claims ON tribunal_tasks (status, claim_expires_at);
  -- One unfinished task per verdict: a regrade cannot run beside a grading.
  CREATE UNIQUE INDEX tribunal_tasks_open ON tribunal_tasks (verdict_id)
    WHERE status IN ('queued', 'claimed');

-- migration 5: incidents, payment events, dataset staging
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

-- migration 6: merkle trees
CREATE TABLE merkle_nodes (
    org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
    log TEXT COLLATE "C" NOT NULL,
    level BIGINT NOT NULL CHECK (level >= 0 AND level < 64),
    idx BIGINT NOT NULL CHECK (idx >= 0),
    -- lowercase hex of the 32-byte SHA-256
    hash TEXT COLLATE "C" NOT NULL CHECK (length(hash) = 64),
    PRIMARY KEY (org_id, log, level, idx)
  );

-- migration 7: audit receipts
CREATE TABLE audit_receipts (
    receipt_id TEXT COLLATE "C" PRIMARY KEY,
    org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
    org_seq BIGINT NOT NULL,
    event_type TEXT COLLATE "C" NOT NULL,
    parent_hash TEXT COLLATE "C" NOT NULL,
    receipt_sha256 TEXT COLLATE "C" NOT NULL,
    payload_text TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    UNIQUE (org_id, org_seq)
  );
  CREATE INDEX audit_receipts_by_type ON audit_receipts (org_id, event_type, org_seq);
  CREATE TABLE audit_sign_in_failures (
    org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
    window_start TEXT COLLATE "C" NOT NULL,
    count BIGINT NOT NULL CHECK (count >= 1),
    first_at TEXT COLLATE "C" NOT NULL,
    last_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (org_id, window_start)
  );

-- migration 8: rate limit windows
CREATE TABLE rate_limit_windows (
    key TEXT COLLATE "C" NOT NULL,
    window_start TEXT COLLATE "C" NOT NULL,
    expires_at TEXT COLLATE "C" NOT NULL,
    hits BIGINT NOT NULL CHECK (hits >= 1),
    PRIMARY KEY (key, window_start)
  );
  CREATE INDEX rate_limit_windows_expiry ON rate_limit_windows (expires_at);

-- migration 9: deployment state
CREATE TABLE deployment_state (
    name TEXT COLLATE "C" PRIMARY KEY,
    value TEXT COLLATE "C" NOT NULL
  );

-- migration 10: share identity
ALTER TABLE orgs ADD COLUMN share_identity TEXT COLLATE "C" NOT NULL DEFAULT 'email'
    CHECK (share_identity IN ('email', 'id'));

-- migration 11: webhooks
CREATE TABLE webhook_endpoints (
    id TEXT COLLATE "C" PRIMARY KEY,
    org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
    url TEXT COLLATE "C" NOT NULL,
    description TEXT COLLATE "C",
    events_json TEXT COLLATE "C" NOT NULL,
    secret_sealed TEXT COLLATE "C" NOT NULL,
    previous_secret_sealed TEXT COLLATE "C",
    previous_secret_until TEXT COLLATE "C",
    enabled BIGINT NOT NULL CHECK (enabled IN (0, 1)),
    disabled_reason TEXT COLLATE "C",
    failing_since TEXT COLLATE "C",
    created_at TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL
  );
  CREATE INDEX webhook_endpoints_by_org ON webhook_endpoints (org_id, created_at, id);
  CREATE TABLE webhook_subscriptions (
    endpoint_id TEXT COLLATE "C" NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    org_id TEXT COLLATE "C" NOT NULL,
    event_type TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (endpoint_id, event_type)
  );
  CREATE INDEX webhook_subscriptions_by_type ON webhook_subscriptions (org_id, event_type);
  CREATE TABLE webhook_events (
    id TEXT COLLATE "C" PRIMARY KEY,
    org_id TEXT COLLATE "C" NOT NULL,
    type TEXT COLLATE "C" NOT NULL,
    payload_text TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL
  );
  CREATE TABLE webhook_deliveries (
    event_id TEXT COLLATE "C" NOT NULL REFERENCES webhook_events(id),
    endpoint_id TEXT COLLATE "C" NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    org_id TEXT COLLATE "C" NOT NULL,
    state TEXT COLLATE "C" NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts BIGINT NOT NULL,
    next_attempt_at TEXT COLLATE "C",
    lease_owner TEXT COLLATE "C",
    lease_expires_at TEXT COLLATE "C",
    last_status BIGINT,
    last_latency_ms BIGINT,
    last_error TEXT COLLATE "C",
    created_at TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (event_id, endpoint_id)
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
  CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at, event_id);

-- migration 12: witnessed checkpoints
CREATE TABLE witnessed_checkpoints (
    org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
    log TEXT COLLATE "C" NOT NULL,
    size BIGINT NOT NULL CHECK (size >= 0),
    note TEXT COLLATE "C" NOT NULL,
    cosignatures BIGINT NOT NULL CHECK (cosignatures >= 0),
    witnessed_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (org_id, log, size)
  );
  CREATE TABLE witness_positions (
    org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs(id),
    log TEXT COLLATE "C" NOT NULL,
    witness TEXT COLLATE "C" NOT NULL,
    size BIGINT NOT NULL CHECK (size >= 0),
    updated_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (org_id, log, witness)
  );
