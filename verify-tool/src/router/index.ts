export {
  FIRST_PREV_CHECKSUM,
  formatRouterReceiptLine,
  routerReceiptChecksum,
  sealRouterReceipt,
  type RouterReceipt,
  type RouterReceiptFields,
} from './receipt.js';
export {
  mergeRouterResults,
  verifyRouterReceiptLines,
  type RouterErrorCode,
  type RouterReceiptError,
  type RouterVerifyOptions,
  type RouterVerifyResult,
} from './verify.js';
