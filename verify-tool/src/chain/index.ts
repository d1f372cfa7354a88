export {
  ChainVerifier,
  DEFAULT_RECEIPT_PREFIX,
  verifyChain,
  verifyReceipt,
  type VerifiedRun,
} from './verifier.js';
export type {
  ChainError,
  ChainErrorCode,
  ChainVerifyOptions,
  ChainVerifyResult,
  LedgerEntryInput,
} from './types.js';
