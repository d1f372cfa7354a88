import type { Actor } from '../actor.js';
import type { Page, Paged } from '../paging.js';
import type { PreparedBlob } from '../ports/blob-store.js';
import type { Approval, ApprovalIn } from '../schemas/approval.js';
import type { Check, CheckGradeIn, ChecksList, FlagsList } from '../schemas/check.js';
import type { RunState } from '../schemas/enums.js';
import type { Evidence, EvidenceIn } from '../schemas/evidence.js';
import type { Receipt } from '../schemas/receipt.js';
import type {
  AuditResponse,
  Run,
  RunComposite,
  RunCreateBody,
  Submission,
} from '../schemas/run.js';
import type { Verdict } from '../schemas/verdict.js';

/**
 * An uploaded file the blob store has already received (`BlobStore.prepare`: hashed and synced);
 * `addFileEvidence` keeps it in the store, or discards it when the evidence is refused.
 */
export interface FileEvidenceInput {
  label: string;
  filename: string;
  content_type: string;
  blob: PreparedBlob;
}

/** What the download route needs to stream a file evidence item from the blob store. */
export interface EvidenceFile {
  sha256: string;
  size: number;
  filename: string;
  content_type: string;
}

export interface RunUseCases {
  create(actor: Actor, input: RunCreateBody): Promise<Run>;
  list(
    actor: Actor,
    query: { project_id?: string; state?: RunState; flight_sheet_slug?: string } & Page,
  ): Promise<Paged<Run>>;
  get(actor: Actor, runId: string): Promise<RunComposite>;
  /** Throws not_found or conflict when the run cannot take evidence now (checked before an upload is stored). */
  assertCanAddEvidence(actor: Actor, runId: string): Promise<void>;
  addEvidence(actor: Actor, runId: string, input: EvidenceIn): Promise<Evidence>;
  /** Stores the spooled file in the blob store, then records it; on failure the blob is deleted unless referenced. */
  addFileEvidence(actor: Actor, runId: string, input: FileEvidenceInput): Promise<Evidence>;
  listEvidence(actor: Actor, runId: string): Promise<Evidence[]>;
  /** not_found for an unknown id or an evidence item that is not a file. */
  evidenceFile(actor: Actor, runId: string, evidenceId: string): Promise<EvidenceFile>;
  /** Any JSON object or array; stored as canonical JSON with its sha256. */
  submit(actor: Actor, runId: string, body: unknown): Promise<Submission>;
  /** not_found when the run has no submission. */
  getSubmission(actor: Actor, runId: string): Promise<Submission>;
  audit(actor: Actor, runId: string): Promise<AuditResponse>;
  gradeCheck(actor: Actor, runId: string, checkId: string, input: CheckGradeIn): Promise<Check>;
  checks(actor: Actor, runId: string): Promise<ChecksList>;
  flags(actor: Actor, runId: string): Promise<FlagsList>;
  /** not_found before the findings are final. */
  verdict(actor: Actor, runId: string): Promise<Verdict>;
  findings(actor: Actor, runId: string): Promise<Verdict>;
  /** A person decides: an API key gets forbidden. */
  approve(actor: Actor, runId: string, input: ApprovalIn): Promise<Approval>;
  /** `created` is false when the run already had its receipt (the same one is returned). */
  mintReceipt(actor: Actor, runId: string): Promise<{ receipt: Receipt; created: boolean }>;
}
