export {
  backupSqliteDatabase,
  type BatchObserver,
  migrations,
  openSqliteStorage,
  type SqliteStorageOptions,
} from './sqlite/index.js';
export { openPostgresStorage, type PostgresStorageOptions } from './postgres/index.js';
export { consoleMailer, smtpMailer } from './mail/index.js';
export { systemClock } from './clock.js';
export { cryptoRandom } from './crypto-random.js';
export { asDiskFull } from './faults/disk-full.js';
export { storageBatches, type BatchLimits } from './batching/storage-batches.js';
export { httpWitnessClient } from './witness/http-client.js';
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
export { durableRename, type FileBlobStore, openFileBlobStore, syncPath } from './files/index.js';
export {
  type JsonlReceiptSink,
  openJsonlReceiptSink,
  receiptFileName,
  type RouterAnchoring,
} from './receipts/index.js';
export {
  checkpointSigner,
  type CheckpointSignerOptions,
  DEV_SIGNING_KEY_FILE,
  devSigningKey,
  readOrCreateSecretFile,
  type RetiredKey,
} from './keys/index.js';
