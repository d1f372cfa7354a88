export {
  checkSignedCheckpoint,
  signCheckpoint,
  type Authorship,
  type CheckedCheckpoint,
  type CheckpointExpectation,
  type CheckpointFinding,
  type CheckpointFindingCode,
} from './signed-checkpoint.js';
export { ReceiptTree, receiptLeaf } from './receipt-tree.js';
export {
  SHARE_JSON_ATTACHMENT,
  verifySharedReceipt,
  type SharedReceiptFindingCode,
  type SharedReceiptResult,
} from './shared-receipt.js';
export { verifyExtends, type ConsistencyInput, type ConsistencyResult } from './consistency.js';
