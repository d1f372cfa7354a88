export {
  openPostgresSnapshot,
  openSqliteSnapshot,
  type PostgresSnapshot,
  type ReadSnapshot,
} from './read-snapshot.js';
export type {
  ChainTable,
  DeploymentScan,
  ScannedChainRow,
  ScannedNode,
} from './deployment-scan.js';
