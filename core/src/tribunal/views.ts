import type { TribunalTaskRecord, TribunalVerdictRecord } from '../ports/tribunal-storage.js';
import type { EvidenceIn } from '../schemas/evidence.js';
import type { FlightSheetInput } from '../schemas/flight-sheet.js';
import type { RunnerSheet, RunnerTaskState, TribunalVerdict } from '../schemas/tribunal.js';
import type { TaskClaimState } from './claims.js';

export function toTribunalVerdict(record: TribunalVerdictRecord): TribunalVerdict {
  return {
    verdict_id: record.verdict_id,
    status: record.status,
    flight_sheet: {
      id: record.flight_sheet_id,
      slug: record.flight_sheet_slug,
      version: record.flight_sheet_version,
      sha256: record.flight_sheet_sha256,
    },
    submission_sha256: record.submission_sha256,
    checks: record.checks,
    verdict: record.verdict,
    error: record.error,
    graded_at: record.graded_at,
    history: record.history,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/** The pinned sheet content of a verdict. */
export function pinnedSheetOf(record: TribunalVerdictRecord): FlightSheetInput {
  return JSON.parse(record.flight_sheet_text) as FlightSheetInput;
}

export function runnerSheetOf(record: TribunalVerdictRecord): RunnerSheet {
  return {
    ...pinnedSheetOf(record),
    id: record.flight_sheet_id,
    sha256: record.flight_sheet_sha256,
  };
}

export function evidenceOf(record: TribunalVerdictRecord): EvidenceIn[] {
  return JSON.parse(record.evidence_text) as EvidenceIn[];
}

export function toTaskState(task: TribunalTaskRecord): RunnerTaskState {
  return {
    task_id: task.task_id,
    verdict_id: task.verdict_id,
    status: task.status,
    attempt: task.attempt,
    claim_expires_at: task.claim_expires_at,
    message: task.message,
  };
}

export function claimStateOf(task: TribunalTaskRecord): TaskClaimState {
  return {
    status: task.status,
    attempt: task.attempt,
    claim_epoch: task.claim_epoch,
    claim_token_hash: task.claim_token_hash,
    claim_expires_at: task.claim_expires_at === null ? null : new Date(task.claim_expires_at),
    runner_id: task.runner_id,
  };
}
