/**
 * The public surface of `@runledger/core` (docs/design.md#public-api): what an embedder or a
 * transport needs. Each feature's use cases are reached through `Runledger` (`Runledger['runs']`…).
 * Wire schemas are at `@runledger/core/schemas`, the ports adapters implement at
 * `@runledger/core/ports`, the pieces only storage adapters and the composition root use at
 * `@runledger/core/adapter`, and port doubles for tests at `@runledger/core/testing`.
 * `api-report/core.api.md` lists every name; a test keeps it current.
 */

// The SDK and what it is built from.
export { createRunledger, type Runledger } from './sdk.js';
export { defaultRunledgerConfig, type RunledgerConfig } from './config.js';
export type { RunledgerPorts } from './deps.js';
export type { Actor } from './actor.js';
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type Page, type Paged } from './paging.js';
export { RunledgerError, type RunledgerErrorCode } from './errors.js';
export { StorageFaultError, isStorageFault, type StorageFaultKind } from './storage-fault.js';

// Values the use cases take or return that a transport names.
export type { SignIn } from './identity/api.js';
export type { EvidenceFile, FileEvidenceInput } from './runs/api.js';
export type { ShareFailure, SharePerson, ShareView } from './share/api.js';
export type { WorkerActor } from './router/api.js';

// Pure domain functions an embedder or a transport may call without the SDK.
export { audit } from './audit/audit.js';
export { computeVerdict } from './verdict/compute.js';
export { tierOf } from './tiers/tier-of.js';
export { BUILTIN_FLIGHT_SHEETS } from './flight-sheets/builtin.js';
export { flightSheetSha256 } from './flight-sheets/sha256.js';
export { RECEIPT_PREFIX } from './receipts/build.js';
export { RunReceiptPayload } from './receipts/payload.js';
export { TLOG_PROOF_ATTACHMENT, tlogProofOf } from './share/tlog-proof.js';
export { gradeTaskResult, type TaskGradeResult } from './tribunal/grading.js';
export { API_KEY_PREFIX } from './secrets/api-key.js';
