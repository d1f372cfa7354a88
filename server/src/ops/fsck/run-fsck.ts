import { join } from 'node:path';
import { openPostgresSnapshot, openSqliteSnapshot, type ReadSnapshot } from '@runledger/adapters';
import { AUDIT_LOG, AUDIT_RECEIPT_PREFIX, LEDGER_LOG } from '@runledger/core/adapter';
import type { TrustedKey } from '@runledger/verify';
import { SQLITE_FILE } from '../backup/take-backup.js';
import type { SignedHead } from '../history/signed-history.js';
import { checkBlobs } from './blob-check.js';
import { checkDayFiles } from './day-file-check.js';
import { Findings, type FsckCounts, type FsckReport } from './findings.js';
import { checkLog, type LogToCheck } from './log-check.js';
import type { Progress } from './progress.js';

/** What fsck checks: the server's own configuration. */
export interface FsckTarget {
  dataDir: string;
  databaseUrl: string | null;
  receiptPrefix: string;
  /** The keys of the deployment's keys document (signed checkpoints, anchors). */
  keys: readonly TrustedKey[];
  /** The checkpoints STATE_DIR says were signed. */
  signed: readonly SignedHead[];
}

/** The database could not be opened or read: exit 2, nothing was judged. */
export class UnreadableError extends Error {
  override name = 'UnreadableError';
}

async function openSnapshot(target: FsckTarget): Promise<ReadSnapshot> {
  try {
    return target.databaseUrl === null
      ? await openSqliteSnapshot(join(target.dataDir, SQLITE_FILE))
      : await openPostgresSnapshot(target.databaseUrl);
  } catch (error) {
    throw new UnreadableError(`the database cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Each organization's two logs, with the checkpoint signed for each. */
function logsOf(orgIds: readonly string[], target: FsckTarget): LogToCheck[] {
  const signed = new Map(target.signed.map((h) => [`${h.org_id}/${h.log}`, h]));
  return orgIds.flatMap((orgId) => [
    {
      orgId,
      log: LEDGER_LOG,
      table: 'receipts',
      prefix: target.receiptPrefix,
      signed: signed.get(`${orgId}/${LEDGER_LOG}`),
    },
    {
      orgId,
      log: AUDIT_LOG,
      table: 'audit_receipts',
      prefix: AUDIT_RECEIPT_PREFIX,
      signed: signed.get(`${orgId}/${AUDIT_LOG}`),
    },
  ]);
}

/** Signed checkpoints of organizations the database does not hold at all. */
function orphanCheckpoints(
  orgIds: readonly string[],
  target: FsckTarget,
  findings: Findings,
): void {
  const known = new Set(orgIds);
  for (const head of target.signed) {
    if (known.has(head.org_id)) continue;
    findings.add({
      organization: head.org_id,
      log: head.log,
      code: 'behind_signed_checkpoint',
      message: `the organization is not in the database, but a checkpoint of ${head.tree_size} was signed at ${head.time}`,
    });
  }
}

/** The database part, in one read snapshot: every log's chain, tree and signed checkpoint. */
async function checkDatabase(
  snapshot: ReadSnapshot,
  target: FsckTarget,
  findings: Findings,
  progress: (total: number) => Progress,
): Promise<{ counts: Partial<FsckCounts>; referenced: string[] }> {
  const orgIds = await snapshot.scan.orgIds();
  const logs = logsOf(orgIds, target);
  let total = 0;
  const sizes = new Map<LogToCheck, number>();
  for (const log of logs) {
    const size = (await snapshot.scan.chainHead(log.table, log.orgId))?.count ?? 0;
    sizes.set(log, size);
    total += size;
  }
  const bar = progress(total);
  let nodes = 0;
  for (const log of logs) {
    nodes += await checkLog(log, { snapshot, findings, keys: target.keys, progress: bar.advance });
  }
  bar.done();
  orphanCheckpoints(orgIds, target, findings);
  const sum = (log: string) =>
    logs.filter((l) => l.log === log).reduce((n, l) => n + sizes.get(l)!, 0);
  return {
    counts: {
      organizations: orgIds.length,
      receipts: sum(LEDGER_LOG),
      audit_receipts: sum(AUDIT_LOG),
      merkle_nodes: nodes,
      signed_checkpoints: logs.filter((l) => l.signed !== undefined).length,
    },
    referenced: await snapshot.scan.referencedBlobs(),
  };
}

/**
 * Checks a whole deployment: every organization's ledger and audit chain with their Merkle trees
 * and signed checkpoints (one database snapshot), then the blobs, then the router day files.
 * Throws UnreadableError when the database cannot be read.
 */
export async function runFsck(
  target: FsckTarget,
  progress: (total: number) => Progress,
): Promise<FsckReport> {
  const started = performance.now();
  const findings = new Findings();
  const snapshot = await openSnapshot(target);
  let database;
  try {
    database = await checkDatabase(snapshot, target, findings, progress);
  } catch (error) {
    throw new UnreadableError(`the database cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    await snapshot.close();
  }
  const blobs = await checkBlobs(join(target.dataDir, 'blobs'), database.referenced, findings);
  const days = await checkDayFiles(target.dataDir, target.keys, findings);
  return {
    ok: findings.list.length === 0 && findings.omitted === 0,
    engine: snapshot.engine,
    checked: {
      organizations: 0,
      receipts: 0,
      audit_receipts: 0,
      merkle_nodes: 0,
      signed_checkpoints: 0,
      ...database.counts,
      blobs,
      day_files: days.files,
      day_file_lines: days.lines,
    },
    findings: findings.list,
    findings_omitted: findings.omitted,
    seconds: Number(((performance.now() - started) / 1000).toFixed(3)),
  };
}
