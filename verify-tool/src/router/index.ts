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
  type RouterFileResult,
  type RouterReceiptError,
  type RouterVerifyOptions,
  type RouterVerifyResult,
} from './verify.js';
export {
  ANCHOR_SUFFIX,
  ROUTER_DAY_FILE,
  checkRouterAnchor,
  routerAnchorFileName,
  routerAnchorOrigin,
  routerDayFileName,
  signRouterAnchor,
} from './anchor.js';
