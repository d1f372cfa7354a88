export { VerifyError, isInputError, type VerifyErrorCode } from './errors.js';
export { canonicalJson, type JsonValue } from './canonical/json.js';
export { sha256Hex, SHA256_HEX } from './hash/sha256.js';
export { GENESIS_PARENT, receiptHash, receiptId } from './receipts/id.js';
export * from './chain/index.js';
export * from './export/index.js';
export * from './router/index.js';
export { verifyExportFile, verifyRouterReceiptFiles } from './io/index.js';
