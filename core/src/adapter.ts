/**
 * `@runledger/core/adapter`: what storage adapters and the composition root use beside the ports,
 * and no embedder needs: the Merkle tree writers and readers that work inside a storage transaction,
 * the fences the adapters' conditional UPDATEs share with the pure state machines, the log names,
 * the receipt builders, and the operator tasks the server runs at start (docs/design.md#public-api).
 */

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

// The fences the pure state machines and the storage adapters' conditional UPDATEs share.
export { LEASE_FENCES, fenceFor, type JobEventType } from './leases/fence.js';
export { CLAIM_FENCES, type TaskEventType } from './tribunal/claims.js';

// Receipts and audit receipts as storage writes them.
export { buildReceipt, type BuiltReceipt, type ReceiptInput } from './receipts/build.js';
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
export { recordHistoryRollback, type RolledBackLog } from './audit-receipts/history-rollback.js';

// Secrets as storage keeps them: hashed, compared in constant time.
export { constantTimeEqual, hashSecret } from './secrets/secret.js';

// Outbound webhooks (docs/webhooks.md): endpoint use cases, the retry schedule and attempt outcomes,
// for the server's delivery worker.
export { webhookUseCases, type WebhookDeps } from './webhook-endpoints/use-cases.js';
export type { SecretBox, WebhookUrlGuard, WebhookUseCases } from './webhook-endpoints/api.js';
export {
  STANDARD_RETRY_SECONDS,
  parseRetrySchedule,
  retryAfterSeconds,
} from './webhooks/schedule.js';
export { attemptOutcome, type AttemptResult } from './webhooks/attempts.js';
export { recordAttempts, type SettledAttempt } from './webhook-endpoints/record-attempts.js';

// Witnesses cosigning each log's checkpoints (docs/witnesses.md), for the server's witnessing round.
export { witnessAllLogs, type WitnessReport, type WitnessingDeps } from './witnessing/round.js';
