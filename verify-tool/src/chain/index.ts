export { ChainVerifier, DEFAULT_RECEIPT_PREFIX, verifyChain, verifyReceipt } from './verifier.js';
export type {
  ChainError,
  ChainErrorCode,
  ChainVerifyOptions,
  ChainVerifyResult,
  LedgerEntryInput,
} from './types.js';
