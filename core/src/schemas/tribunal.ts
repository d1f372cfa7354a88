import { z } from 'zod';
import { CheckDraft } from './check.js';
import { Sha256Hex, Timestamp } from './common.js';
import { EvidenceIn } from './evidence.js';
import { FlightSheetInput } from './flight-sheet.js';
import { SubmissionIn } from './run.js';
import { Verdict } from './verdict.js';

/** Where a tribunal verdict stands: queued → grading (a runner holds the task) → complete | failed. */
export const TribunalStatus = z.enum(['queued', 'grading', 'complete', 'failed']);
/** A grading task in the queue: queued → claimed → completed | failed; an expired claim is requeued. */
export const TribunalTaskStatus = z.enum(['queued', 'claimed', 'completed', 'failed']);

const ClaimToken = z.string().min(1).max(256);

/** Body of `POST /v1/tribunal/grade`: a sheet id or slug visible to the org, or an inline sheet. */
export const TribunalGradeBody = z.strictObject({
  flight_sheet: z.union([z.string().min(1).max(200), FlightSheetInput]),
  submission: SubmissionIn,
  evidence: z.array(EvidenceIn).max(100).optional(),
});

export const TribunalQueued = z.object({ verdict_id: z.string(), status: TribunalStatus });

/** The exact sheet a verdict was graded against; `id` is null for an inline sheet. */
export const TribunalSheetRef = z.object({
  id: z.string().nullable(),
  slug: z.string(),
  version: z.string(),
  sha256: Sha256Hex,
});

/** An earlier result, moved aside by a regrade whose reason, owner and time it keeps. */
export const TribunalHistoryEntry = z.object({
  checks: z.array(CheckDraft).nullable(),
  verdict: Verdict.nullable(),
  error: z.string().nullable(),
  graded_at: Timestamp,
  reason: z.string(),
  /** The user id of the owner who asked for the regrade. */
  regraded_by: z.string(),
  regraded_at: Timestamp,
});

export const TribunalVerdict = z.object({
  verdict_id: z.string(),
  status: TribunalStatus,
  flight_sheet: TribunalSheetRef,
  /** sha256 of the canonical JSON (RFC 8785) of the submission. */
  submission_sha256: Sha256Hex,
  /** null until complete. */
  checks: z.array(CheckDraft).nullable(),
  /** null until complete; with open checklist checks the outcome is at best `risk`. */
  verdict: Verdict.nullable(),
  /** Why grading failed; null otherwise. */
  error: z.string().nullable(),
  graded_at: Timestamp.nullable(),
  history: z.array(TribunalHistoryEntry),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** Body of `POST /v1/tribunal/regrade` (owner only). */
export const TribunalRegradeBody = z.strictObject({
  verdict_id: z.string().min(1).max(100),
  reason: z.string().min(1).max(2000),
});

/** The sheet handed to a runner: its content plus id (null when inline) and sha256. */
export const RunnerSheet = FlightSheetInput.extend({
  id: z.string().nullable(),
  sha256: Sha256Hex,
});

export const RunnerClaimBody = z.strictObject({ runner_id: z.string().min(1).max(200).optional() });

/** What `POST /internal/runner/claim` hands a runner; the claim_token is shown only here. */
export const RunnerTask = z.object({
  task_id: z.string(),
  verdict_id: z.string(),
  claim_token: z.string(),
  claim_expires_at: Timestamp,
  attempt: z.int().min(1),
  flight_sheet: RunnerSheet,
  submission: SubmissionIn,
  evidence: z.array(EvidenceIn),
});

export const RunnerTaskState = z.object({
  task_id: z.string(),
  verdict_id: z.string(),
  status: TribunalTaskStatus,
  attempt: z.int().min(1),
  claim_expires_at: Timestamp.nullable(),
  message: z.string().nullable(),
});

export const RunnerStatusBody = z.strictObject({
  claim_token: ClaimToken,
  message: z.string().max(2000).optional(),
});

/** One check per rule of the sheet; the server checks them against the rules and computes the verdict. */
export const RunnerCompleteBody = z.strictObject({
  claim_token: ClaimToken,
  checks: z.array(z.strictObject(CheckDraft.shape)).max(200),
});

export const RunnerFailBody = z.strictObject({
  claim_token: ClaimToken,
  error: z.string().min(1).max(2000),
});

export type TribunalStatus = z.infer<typeof TribunalStatus>;
export type TribunalTaskStatus = z.infer<typeof TribunalTaskStatus>;
export type TribunalGradeBody = z.infer<typeof TribunalGradeBody>;
export type TribunalQueued = z.infer<typeof TribunalQueued>;
export type TribunalSheetRef = z.infer<typeof TribunalSheetRef>;
export type TribunalHistoryEntry = z.infer<typeof TribunalHistoryEntry>;
export type TribunalVerdict = z.infer<typeof TribunalVerdict>;
export type TribunalRegradeBody = z.infer<typeof TribunalRegradeBody>;
export type RunnerSheet = z.infer<typeof RunnerSheet>;
export type RunnerClaimBody = z.infer<typeof RunnerClaimBody>;
export type RunnerTask = z.infer<typeof RunnerTask>;
export type RunnerTaskState = z.infer<typeof RunnerTaskState>;
export type RunnerStatusBody = z.infer<typeof RunnerStatusBody>;
export type RunnerCompleteBody = z.infer<typeof RunnerCompleteBody>;
export type RunnerFailBody = z.infer<typeof RunnerFailBody>;
