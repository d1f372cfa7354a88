export * from './sqlite/index.js';
export * from './postgres/index.js';
export * from './mail/index.js';
export { systemClock } from './clock.js';
export { cryptoRandom } from './crypto-random.js';
export { asDiskFull } from './faults/disk-full.js';
export { storageBatches, type BatchLimits } from './batching/storage-batches.js';
export * from './files/index.js';
export * from './receipts/index.js';
export * from './keys/index.js';
export {
  openPostgresSnapshot,
  openSqliteSnapshot,
  type ChainTable,
  type DeploymentScan,
  type PostgresSnapshot,
  type ReadSnapshot,
  type ScannedChainRow,
  type ScannedNode,
} from './snapshot/index.js';
