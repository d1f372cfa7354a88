import { notFound } from '../errors.js';
import type {
  ApprovalRecord,
  CheckRecord,
  EvidenceRecord,
  Repositories,
  RunRecord,
  SubmissionRecord,
  WriteTransaction,
} from '../ports/storage.js';
import type { Approval } from '../schemas/approval.js';
import type { Check } from '../schemas/check.js';
import type { Evidence } from '../schemas/evidence.js';
import type { Incident } from '../schemas/incident.js';
import type { IncidentRecord } from '../ports/incident-storage.js';
import type { Run, Submission } from '../schemas/run.js';

/** Records as the wire shows them: org ids and storage-only fields stay inside. */

export function toRun(r: RunRecord): Run {
  return {
    id: r.id,
    project_id: r.project_id,
    flight_sheet_id: r.flight_sheet_id,
    flight_sheet_version: r.flight_sheet_version,
    flight_sheet_sha256: r.flight_sheet_sha256,
    title: r.title,
    state: r.state,
    created_at: r.created_at,
    created_by: r.created_by,
    updated_at: r.updated_at,
  };
}

export function toEvidence(e: EvidenceRecord): Evidence {
  const base = {
    id: e.id,
    kind: e.kind,
    label: e.label,
    sha256: e.sha256,
    size: e.size,
    created_at: e.created_at,
  };
  if (e.content !== null) return { ...base, content: e.content };
  return { ...base, filename: e.filename ?? '', content_type: e.content_type ?? '' };
}

export function toCheck(c: CheckRecord): Check {
  return {
    id: c.id,
    key: c.key,
    label: c.label,
    category: c.category,
    kind: c.kind,
    severity: c.severity,
    tier: c.tier,
    status: c.status,
    detail: c.detail,
  };
}

/** The wire note is a string: an approval without a note shows ''. */
export function toApproval(a: ApprovalRecord): Approval {
  return {
    decision: a.decision,
    note: a.note ?? '',
    decided_by: a.decided_by,
    decided_at: a.decided_at,
  };
}

export function toSubmission(s: SubmissionRecord): Submission {
  return {
    run_id: s.run_id,
    sha256: s.sha256,
    submitted_at: s.submitted_at,
    body: JSON.parse(s.body_text) as unknown,
  };
}

export function toIncident(r: IncidentRecord): Incident {
  return {
    id: r.id,
    run_id: r.run_id,
    kind: r.kind,
    note: r.note,
    rule_key: r.rule_key,
    created_by: r.created_by,
    created_at: r.created_at,
  };
}

/** The run, or 404 (another org's run id is indistinguishable from an unknown one). */
function found(run: RunRecord | null): RunRecord {
  if (!run) throw notFound('run');
  return run;
}

/** The run in the actor's org, or 404. */
export async function loadRun(tx: Repositories, orgId: string, runId: string): Promise<RunRecord> {
  return found(await tx.runs.get(orgId, runId));
}

/**
 * `loadRun` in a write transaction, the run's row held until it ends: a guarded update from the
 * state read here cannot miss, so it can end the transaction (`endWithRunUpdate`).
 */
export async function loadRunForUpdate(
  tx: WriteTransaction,
  orgId: string,
  runId: string,
): Promise<RunRecord> {
  return found(await tx.runs.getForUpdate(orgId, runId));
}
