export { VerifyError, isInputError, type VerifyErrorCode } from './errors.js';
export { canonicalJson, type JsonValue } from './canonical/json.js';
export { sha256, sha256Hex, SHA256_HEX, SHA256_BACKEND } from './hash/sha256.js';
export { fromHex, toHex } from './hash/hex.js';
export { GENESIS_PARENT, receiptHash, receiptId } from './receipts/id.js';
export * from './chain/index.js';
export * from './export/index.js';
export * from './router/index.js';
export * from './merkle/index.js';
export * from './note/index.js';
export * from './ledger/index.js';
export * from './attestation/index.js';
export {
  verifyExportFile,
  verifyRouterReceiptFiles,
  type ExportFileOptions,
  type RouterFilesResult,
} from './io/index.js';
export {
  cosignatureLine,
  cosignerSigner,
  checkWitnessPolicy,
  formatCosignerVkey,
  parseCosignerVkey,
  verifyCosignatures,
  witnessPolicy,
  type CosignerKey,
  type CosignerSigner,
  type WitnessCheck,
  type WitnessPolicy,
} from './witness/index.js';
export {
  formatTlogProof,
  parseTlogProof,
  verifyTlogProof,
  type TlogProof,
  type TlogProofResult,
} from './tlog-proof/index.js';
