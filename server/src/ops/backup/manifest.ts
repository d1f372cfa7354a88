import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReadSnapshot } from '@runledger/adapters';
import { AUDIT_LOG, LEDGER_LOG, treeRootAt, treeSize } from '@runledger/core/adapter';
import { toHex } from '@runledger/verify/hash';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 'runledger-backup';

/** One log of one organization as of the backup's instant: its chain and its Merkle tree head. */
export interface LogHead {
  org_id: string;
  log: string;
  /** Receipts in the chain (run receipts for `ledger`, audit receipts for `audit`). */
  receipts: number;
  /** receipt_sha256 of the chain's last receipt; null for an empty chain. */
  head_sha256: string | null;
  tree_size: number;
  /** Lowercase hex of the tree's root at tree_size. */
  root_hash: string;
}

/** A file of the backup, relative to its folder, with what restore checks it against. */
export interface BackupFile {
  path: string;
  bytes: number;
  sha256: string;
}

export interface DayFileEntry {
  file: string;
  lines: number;
  /** The last line's checksum_sha256; null for a file without lines. */
  head_checksum_sha256: string | null;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  version: 1;
  engine: 'sqlite' | 'postgres';
  /** When the database snapshot was taken. */
  taken_at: string;
  /** The database's file in the backup (`runledger.sqlite`, or `database.pgdump` from pg_dump -Fc). */
  database: string;
  logs: LogHead[];
  counts: {
    organizations: number;
    receipts: number;
    audit_receipts: number;
    blobs: number;
    day_files: number;
  };
  day_files: DayFileEntry[];
  files: BackupFile[];
  /** What is deliberately not in the backup, and why: the operator keeps these apart. */
  excluded: Array<{ path: string; reason: string }>;
}

export const EXCLUDED: Manifest['excluded'] = [
  {
    path: 'signing-key',
    reason:
      'the checkpoint signing key (or SIGNING_KEY): a secret, kept apart from backups; restore it separately',
  },
  { path: 'jwt-secret', reason: 'the session-token secret (or JWT_SECRET): a secret, kept apart' },
  {
    path: 'state/',
    reason: 'STATE_DIR: the checkpoints this deployment signed, which a restore must not roll back',
  },
];

const CHAINS = [
  { log: LEDGER_LOG, table: 'receipts' },
  { log: AUDIT_LOG, table: 'audit_receipts' },
] as const;

/** Every organization's ledger and audit log, read in the snapshot. */
export async function logHeads(snapshot: ReadSnapshot): Promise<LogHead[]> {
  const heads: LogHead[] = [];
  const tx = { merkle: snapshot.merkle };
  for (const orgId of await snapshot.scan.orgIds()) {
    for (const { log, table } of CHAINS) {
      const chain = await snapshot.scan.chainHead(table, orgId);
      const size = await treeSize(tx, orgId, log);
      heads.push({
        org_id: orgId,
        log,
        receipts: chain?.count ?? 0,
        head_sha256: chain?.receipt_sha256 ?? null,
        tree_size: size,
        root_hash: toHex(await treeRootAt(tx, orgId, log, size)),
      });
    }
  }
  return heads;
}

export class BackupError extends Error {
  override name = 'BackupError';
}

/** Reads and checks a backup folder's manifest. */
export async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    throw new BackupError(
      `${dir} has no ${MANIFEST_FILE}: not a backup, or one that did not finish`,
    );
  }
  const manifest = JSON.parse(text) as Manifest;
  if (manifest.format !== MANIFEST_FORMAT || manifest.version !== 1) {
    throw new BackupError(
      `${join(dir, MANIFEST_FILE)} is not a runledger backup manifest (version 1)`,
    );
  }
  return manifest;
}
