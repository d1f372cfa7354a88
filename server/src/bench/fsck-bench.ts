/**
 * `npm run bench:fsck`: how fast `runledger-server fsck` checks a deployment, on a real SQLite file
 * holding one organization with N receipts (default 10^6) and their Merkle tree. The chain is
 * seeded straight through the storage port (minting 10^6 receipts over HTTP would take hours):
 * receipts in the real payload format, hashed and linked as the mint does, each on its own run row,
 * their leaves appended with core's appendLeaves. Prints the seed time and fsck's rate, and beside
 * them the floor: the database file read once and hashed (SQLite). No pass/fail.
 *
 *   node server/dist/bench/fsck-bench.js [--receipts N] [--keep DIR] [--database-url URL]
 *
 * --database-url URL seeds and checks PostgreSQL at URL (an empty database) instead of SQLite.
 * --keep DIR seeds into DIR (a new folder) and leaves it there, for `runledger-server fsck` runs
 * against it (DATA_DIR=DIR).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openPostgresStorage, openSqliteStorage } from '@runledger/adapters';
import { GENESIS_PARENT, canonicalJson, receiptHash, receiptId } from '@runledger/verify';
import { LEDGER_LOG, appendLeaves } from '@runledger/core/adapter';
import type { Storage } from '@runledger/core/ports';
import { receiptLeaf } from '@runledger/verify/ledger';
import { silentProgress } from '../ops/fsck/progress.js';
import { runFsck } from '../ops/fsck/run-fsck.js';
import { approvedRun, benchRunledger, signUp } from './seed.js';

const PER_TRANSACTION = 5000;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`--${name} needs a positive integer`);
  return value;
}

/** A run receipt's payload of realistic size (about 600 bytes of canonical JSON). */
function payloadOf(orgId: string, seq: number, parent: string, at: string, runId: string) {
  return {
    v: 1,
    type: 'run_receipt',
    org_id: orgId,
    org_seq: seq,
    parent_hash: parent,
    minted_at: at,
    run_id: runId,
    run_title: `Summarize the quarterly incident reports, run ${seq}`,
    flight_sheet: { id: 'agent-task-report', version: '1.0.0', sha256: 'ab'.repeat(32) },
    verdict: { status: 'pass', checks_passed: 12, checks_failed: 0, checks_flagged: 0 },
    approval: { decision: 'approved', by: 'usr_bench', at },
    submission_sha256: 'cd'.repeat(32),
  };
}

/** Appends `count` receipts to the org's empty chain, each on a copy of the template run. */
async function seedChain(storage: Storage, orgId: string, templateId: string, count: number) {
  const template = await storage.read((tx) => tx.runs.get(orgId, templateId));
  if (template === null) throw new Error('seed: template run not found');
  let parent = GENESIS_PARENT;
  for (let start = 0; start < count; start += PER_TRANSACTION) {
    await storage.write(async (tx) => {
      const leaves: Uint8Array[] = [];
      for (let seq = start; seq < Math.min(count, start + PER_TRANSACTION); seq += 1) {
        const runId = `run_fsckbench${seq}`;
        const at = new Date(Date.UTC(2020, 0, 1) + seq).toISOString();
        const payload = payloadOf(orgId, seq, parent, at, runId);
        const sha = receiptHash(payload);
        await tx.runs.insert({ ...template, id: runId, state: 'receipted', created_at: at });
        await tx.receipts.insert({
          receipt_id: receiptId('rcpt', seq, sha),
          org_id: orgId,
          org_seq: seq,
          run_id: runId,
          parent_hash: parent,
          receipt_sha256: sha,
          payload_text: canonicalJson(payload),
          share_token: `fsckbench${seq}`,
          created_at: at,
        });
        leaves.push(receiptLeaf(sha));
        parent = sha;
      }
      await appendLeaves(tx, orgId, LEDGER_LOG, leaves, start);
    });
  }
}

/**
 * The platform's floor for checking a SQLite deployment: reading its database file once and
 * hashing every byte with node:crypto's SHA-256 (no parsing, no tree), in the same run.
 */
async function readAndHashSeconds(file: string): Promise<number> {
  const started = performance.now();
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
  }
  hash.digest();
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  const receipts = option('receipts', 1_000_000);
  const keep = process.argv.indexOf('--keep');
  const url = process.argv.indexOf('--database-url');
  const databaseUrl = url >= 0 ? process.argv[url + 1]! : null;
  const dataDir =
    keep >= 0 ? process.argv[keep + 1]! : await mkdtemp(join(tmpdir(), 'runledger-fsck-bench-'));
  await mkdir(dataDir, { recursive: true });
  try {
    const storage =
      databaseUrl === null
        ? await openSqliteStorage({ file: join(dataDir, 'runledger.sqlite') })
        : await openPostgresStorage({ connectionString: databaseUrl });
    const seedStarted = performance.now();
    const { rl, close } = await benchRunledger(storage, join(dataDir, 'scratch'));
    const { me, orgId, projectId } = await signUp(rl, 'fsck-bench@example.com');
    await seedChain(storage, orgId, await approvedRun(rl, me, projectId, 'template'), receipts);
    await close();
    await storage.close();
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const report = await runFsck(
      { dataDir, databaseUrl, receiptPrefix: 'rcpt', keys: [], signed: [] },
      () => silentProgress,
    );
    const c = report.checked;
    const floorSeconds =
      databaseUrl === null ? await readAndHashSeconds(join(dataDir, 'runledger.sqlite')) : null;
    console.log(
      JSON.stringify({
        engine: report.engine,
        receipts: c.receipts,
        merkle_nodes: c.merkle_nodes,
        ok: report.ok,
        findings: report.findings.length + report.findings_omitted,
        seed_seconds: Number(seedSeconds.toFixed(1)),
        fsck_seconds: report.seconds,
        receipts_per_second: Math.round(c.receipts / report.seconds),
        // SQLite only: a database server's files are not this process's to read.
        floor_read_and_hash_seconds: floorSeconds === null ? null : Number(floorSeconds.toFixed(1)),
        fsck_over_floor:
          floorSeconds === null ? null : Number((report.seconds / floorSeconds).toFixed(1)),
        peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      }),
    );
  } finally {
    if (keep < 0) await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
