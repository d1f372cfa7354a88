export { VerifyError, type VerifyErrorCode } from './errors.js';
export { canonicalJson, type JsonValue } from './canonical/json.js';
export { sha256Hex, SHA256_HEX } from './hash/sha256.js';
export { GENESIS_PARENT, receiptHash, receiptId } from './receipts/id.js';
export { routerReceiptChecksum } from './router/checksum.js';
