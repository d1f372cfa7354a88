export * from './ports/index.js';
export * from './errors.js';
export * from './schemas/index.js';
export * from './tiers/index.js';
export * from './audit/index.js';
export * from './verdict/index.js';
export * from './flight-sheets/index.js';
export * from './runs/index.js';
export * from './incidents/index.js';
export * from './receipts/index.js';
export * from './router/index.js';
export * from './leases/index.js';
export * from './secrets/index.js';
export * from './sdk.js';
export * from './identity/index.js';
export * from './projects/index.js';
export * from './ledger/index.js';
export * from './share/index.js';
export * from './tribunal/index.js';
// The ledger format is the verify package's; core re-exports it so adapters and embedders need one import.
export {
  GENESIS_PARENT,
  canonicalJson,
  receiptHash,
  receiptId,
  formatRouterReceiptLine,
  routerReceiptChecksum,
  sealRouterReceipt,
  sha256Hex,
} from '@runledger/verify';
