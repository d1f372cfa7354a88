/**
 * The public surface of `@runledger/core` (docs/design.md#public-api). Wire schemas are at
 * `@runledger/core/schemas`, the ports adapters implement at `@runledger/core/ports`, and port
 * doubles for tests at `@runledger/core/testing`.
 */

// The SDK and what it is built from.
export { createRunledger, type Runledger } from './sdk.js';
export { defaultRunledgerConfig, type RunledgerConfig } from './config.js';
export type { Deps, RunledgerPorts } from './deps.js';
export type { Actor } from './actor.js';
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type Page, type Paged } from './paging.js';
export { RunledgerError, type RunledgerErrorCode } from './errors.js';
export { StorageFaultError, isStorageFault, type StorageFaultKind } from './storage-fault.js';

// Each feature's use-case contract.
export type { ApiKeyUseCases, AuthUseCases, OrgUseCases, SignIn } from './identity/api.js';
export type { ProjectUseCases } from './projects/api.js';
export type { FlightSheetUseCases } from './flight-sheets/api.js';
export type { EvidenceFile, FileEvidenceInput, RunUseCases } from './runs/api.js';
export type { IncidentUseCases } from './incidents/api.js';
export type { LedgerUseCases } from './ledger/api.js';
export type { ShareFailure, SharePerson, ShareUseCases, ShareView } from './share/api.js';
export type { RouterUseCases, WorkerActor } from './router/api.js';
export type { TribunalUseCases } from './tribunal/api.js';
export type { AuditUseCases } from './audit-receipts/api.js';
export type { AttestationUseCases } from './attestations/api.js';

// Pure domain functions an embedder or a transport may call without the SDK.
export { audit } from './audit/audit.js';
export { computeVerdict } from './verdict/compute.js';
export { BUILTIN_FLIGHT_SHEETS } from './flight-sheets/builtin.js';
export { flightSheetSha256 } from './flight-sheets/sha256.js';
export {
  RECEIPT_PREFIX,
  buildReceipt,
  type BuiltReceipt,
  type ReceiptInput,
} from './receipts/build.js';
export { RunReceiptPayload } from './receipts/payload.js';
export {
  AUDIT_LOG,
  AUDIT_RECEIPT_PREFIX,
  buildAuditReceipt,
  type AuditReceiptInput,
  type BuiltAuditReceipt,
} from './audit-receipts/build.js';
export { SIGN_IN_FAILURE_WINDOW_MS } from './audit-receipts/record.js';
export {
  SIGNING_KEY_STATE,
  recordSigningKeyRotation,
  type KeyRotationResult,
} from './audit-receipts/key-rotation.js';
export { gradeTaskResult, type TaskGradeResult } from './tribunal/grading.js';
export { API_KEY_PREFIX } from './secrets/api-key.js';
export { constantTimeEqual, hashSecret } from './secrets/secret.js';

// The fences the pure state machines and the storage adapters' conditional UPDATEs share.
export { LEASE_FENCES, fenceFor, type JobEventType } from './leases/fence.js';
export { CLAIM_FENCES, type TaskEventType } from './tribunal/claims.js';

// The ledger format is the verify package's; core re-exports it so adapters and embedders need one import.
export {
  GENESIS_PARENT,
  canonicalJson,
  receiptHash,
  receiptId,
  formatRouterReceiptLine,
  routerReceiptChecksum,
  sealRouterReceipt,
  sha256Hex,
} from '@runledger/verify';

// Merkle trees per (organization, log) and their signed checkpoints (docs/checkpoints.md).
export {
  LEDGER_LOG,
  appendLeaf,
  appendLeaves,
  backfillLedgerTrees,
  consistencyProofAt,
  inclusionProofAt,
  logOrigin,
  signedCheckpoint,
  treeRootAt,
  treeSize,
  type CheckpointContext,
  type TreeHead,
} from './checkpoints/index.js';

// Witnesses cosigning each log's checkpoints (docs/witnesses.md).
export { witnessAllLogs, type WitnessReport, type WitnessingDeps } from './witnessing/round.js';
export { TLOG_PROOF_ATTACHMENT, tlogProofOf } from './share/tlog-proof.js';
