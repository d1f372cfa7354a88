/**
 * The public surface of `@runledger/verify`: the checks a third party runs, each on a whole input
 * (an export, router day files, a shared receipt, an attestation, a signed checkpoint). The formats
 * and the primitives they are built from are grouped on subpaths: `@runledger/verify/chain`,
 * `/export`, `/router`, `/merkle`, `/note`, `/ledger`, `/attestation` and `/hash`.
 * `api-report/verify-tool.api.md` lists every name; a test keeps it current.
 */
export { VerifyError, isInputError, type VerifyErrorCode } from './errors.js';
export { canonicalJson, type JsonValue } from './canonical/json.js';
export { GENESIS_PARENT, receiptHash, receiptId } from './receipts/id.js';
export {
  verifyChain,
  verifyReceipt,
  type ChainError,
  type ChainVerifyResult,
} from './chain/index.js';
export { verifyExportLines, type ExportVerifyResult } from './export/index.js';
export {
  verifyExportFile,
  verifyRouterReceiptFiles,
  type ExportFileOptions,
  type RouterFilesResult,
} from './io/index.js';
export { verifyRouterReceiptLines, type RouterVerifyResult } from './router/index.js';
export {
  checkSignedCheckpoint,
  verifyExtends,
  verifySharedReceipt,
  type CheckedCheckpoint,
  type ConsistencyResult,
  type SharedReceiptResult,
} from './ledger/index.js';
export { verifyConsistency, verifyInclusion } from './merkle/index.js';
export { parseKeysDocument, trustVkey, type KeysDocument, type TrustedKey } from './note/index.js';
export { verifyAttestation, type AttestationResult } from './attestation/index.js';
