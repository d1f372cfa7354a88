export { RunReceiptPayload } from './payload.js';
export {
  RECEIPT_PREFIX,
  mintReceipt,
  nextLink,
  type ChainHead,
  type MintInput,
  type MintedReceipt,
} from './mint.js';
export { shareToken, shareUrl, pdfUrl } from './share.js';
