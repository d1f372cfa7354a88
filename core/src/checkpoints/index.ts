export {
  LEDGER_LOG,
  appendLeaf,
  appendLeaves,
  consistencyProofAt,
  inclusionProofAt,
  treeRootAt,
  treeSize,
  type TreeHead,
} from './tree.js';
export {
  logOrigin,
  receiptInclusionProof,
  signedCheckpoint,
  type CheckpointContext,
} from './checkpoint.js';
export { backfillLedgerTrees } from './backfill.js';
