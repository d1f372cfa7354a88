import { z } from 'zod';
import { Approval } from './approval.js';
import { Check } from './check.js';
import { NextCursor, Sha256Hex, Timestamp } from './common.js';
import { RunState } from './enums.js';
import { Evidence } from './evidence.js';
import { FlightSheet } from './flight-sheet.js';
import { Incident } from './incident.js';
import { Receipt } from './receipt.js';
import { Verdict } from './verdict.js';

/** Which agent did the work, when an agent did; recorded with the run, not hashed into the receipt. */
export const AgentProfile = z.strictObject({
  name: z.string().trim().min(1).max(200),
  version: z.string().max(100).optional(),
  model: z.string().max(200).optional(),
});

/** Body of `POST /runs`. `flight_sheet_id` takes an id or a slug (a slug pins its newest version). */
export const RunCreateBody = z.strictObject({
  project_id: z.string().min(1).max(100),
  flight_sheet_id: z.string().min(1).max(100),
  title: z.string().trim().min(1).max(200),
  agent_profile: AgentProfile.optional(),
});

export const Run = z.object({
  id: z.string(),
  project_id: z.string(),
  /** The exact flight sheet version the run is pinned to, and its SHA-256. */
  flight_sheet_id: z.string(),
  flight_sheet_version: z.string(),
  flight_sheet_sha256: Sha256Hex,
  title: z.string(),
  state: RunState,
  created_at: Timestamp,
  created_by: z.string(),
  updated_at: Timestamp,
});

export const RunList = z.object({ runs: z.array(Run), next: NextCursor });

/** Body of `POST /runs/{run_id}/submission`: any JSON object or array. */
export const SubmissionIn = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]);

export const Submission = z.object({
  run_id: z.string(),
  /** sha256 of the canonical JSON (RFC 8785) of the body, as stored. */
  sha256: Sha256Hex,
  submitted_at: Timestamp,
  body: z.unknown(),
});

export const EvidenceList = z.object({ evidence: z.array(Evidence) });

/** Answer of `POST /runs/{run_id}/audit`; `verdict` only when the sheet is all-auto (deterministic). */
export const AuditResponse = z.object({
  checks: z.array(Check),
  verdict: Verdict.optional(),
  needs_grading: z.boolean(),
  deterministic: z.boolean(),
});

export const RunOwnership = z.object({
  org_id: z.string(),
  project_id: z.string(),
  created_by: z.string(),
});

/** `GET /runs/{run_id}`: everything about one run. */
export const RunComposite = z.object({
  run: Run,
  flight_sheet: FlightSheet,
  agent_profile: AgentProfile.nullable(),
  evidence: z.array(Evidence),
  submission: Submission.nullable(),
  checks: z.array(Check),
  verdict: Verdict.nullable(),
  approval: Approval.nullable(),
  receipt: Receipt.nullable(),
  incidents: z.array(Incident),
  ownership: RunOwnership,
});

/** `GET /receipts/recent`: newest first; `next` is the org_seq to pass as `before_seq`. */
export const ReceiptsRecent = z.object({ receipts: z.array(Receipt), next: NextCursor });

export type AgentProfile = z.infer<typeof AgentProfile>;
export type RunCreateBody = z.infer<typeof RunCreateBody>;
export type Run = z.infer<typeof Run>;
export type RunList = z.infer<typeof RunList>;
export type SubmissionIn = z.infer<typeof SubmissionIn>;
export type Submission = z.infer<typeof Submission>;
export type EvidenceList = z.infer<typeof EvidenceList>;
export type AuditResponse = z.infer<typeof AuditResponse>;
export type RunOwnership = z.infer<typeof RunOwnership>;
export type RunComposite = z.infer<typeof RunComposite>;
export type ReceiptsRecent = z.infer<typeof ReceiptsRecent>;
