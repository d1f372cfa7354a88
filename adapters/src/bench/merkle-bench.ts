/**
 * `npm run bench:merkle`: what the Merkle tree costs, on a real SQLite file (docs/checkpoints.md).
 * 1. The mint's share: write transactions that insert one receipt row (the chain append, the
 *    floor) against the same plus `appendLeaf` (the tree append), as a ratio.
 * 2. Proofs at `--leaves` (default 100,000): the mean time of an inclusion and a consistency proof
 *    read in one read transaction, against the platform's floor: the SQLite driver itself reading
 *    as many `merkle_nodes` rows as a proof has hashes, by primary key with one prepared statement.
 *    A read transaction of the storage layer reading one row is printed beside it for context.
 * Prints; asserts nothing (speed is measured here, never in tests).
 *
 *   node adapters/dist/bench/merkle-bench.js [--leaves N] [--mints M]
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import {
  LEDGER_LOG,
  appendLeaf,
  appendLeaves,
  consistencyProofAt,
  inclusionProofAt,
} from '@runledger/core/adapter';
import type { Storage } from '@runledger/core/ports';
import { openSqliteStorage } from '../sqlite/index.js';

const T0 = '2026-01-01T00:00:00.000Z';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`--${name} needs a positive integer`);
  return value;
}

async function seedOrg(storage: Storage, org: string, runs: number): Promise<void> {
  await storage.write(async (tx) => {
    await tx.orgs.insert({ id: org, name: org, created_at: T0 });
    await tx.projects.insert({
      id: `${org}_p`,
      org_id: org,
      name: 'P',
      created_at: T0,
      created_by: 'u',
    });
    for (let i = 0; i < runs; i++) {
      await tx.runs.insert({
        id: `${org}_r${i}`,
        org_id: org,
        project_id: `${org}_p`,
        flight_sheet_id: 'fs',
        flight_sheet_slug: 'x',
        flight_sheet_version: '1.0.0',
        flight_sheet_sha256: '0'.repeat(64),
        title: 't',
        agent_profile: null,
        state: 'draft',
        verdict: null,
        approval: null,
        created_at: T0,
        created_by: 'u',
        updated_at: T0,
      });
    }
  });
}

/** Write transactions `from..to`, each inserting one receipt row, and with `tree` its leaf too; ms. */
async function mintMs(
  storage: Storage,
  org: string,
  from: number,
  to: number,
  tree: boolean,
): Promise<number> {
  const started = performance.now();
  for (let i = from; i < to; i++) {
    const sha = randomBytes(32);
    await storage.write(async (tx) => {
      await tx.receipts.insert({
        receipt_id: `${org}-${i}`,
        org_id: org,
        org_seq: i,
        run_id: `${org}_r${i}`,
        parent_hash: '0'.repeat(64),
        receipt_sha256: sha.toString('hex'),
        payload_text: '{}',
        share_token: `${org}-t${i}`,
        created_at: T0,
      });
      if (tree) await appendLeaf(tx, org, LEDGER_LOG, sha);
    });
  }
  return performance.now() - started;
}

/** Both kinds in alternating slices of 50, so a loaded machine's swings hit both alike; per second. */
async function mintRates(storage: Storage, mints: number): Promise<[number, number]> {
  let floorMs = 0;
  let treeMs = 0;
  for (let at = 0; at < mints; at += 50) {
    const to = Math.min(mints, at + 50);
    floorMs += await mintMs(storage, 'chain', at, to, false);
    treeMs += await mintMs(storage, 'tree', at, to, true);
  }
  return [mints / (floorMs / 1000), mints / (treeMs / 1000)];
}

async function meanMs(rounds: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < rounds; i++) await fn(i);
  return (performance.now() - started) / rounds;
}

/**
 * The platform floor of a proof: the SQLite driver's own prepared statement (better-sqlite3, the one
 * the storage uses) reading `hashes` level-0 nodes by primary key in one call (`idx IN (…)`) on the
 * same file, per round (a proof reads about that many nodes).
 */
async function rawPointReadsMs(
  file: string,
  rounds: number,
  hashes: number,
  leaves: number,
): Promise<number> {
  const db = new Database(file, { readonly: true });
  const statement = db.prepare(
    `SELECT hash FROM merkle_nodes WHERE org_id = ? AND log = ? AND level = 0 AND idx IN (${Array(
      hashes,
    )
      .fill('?')
      .join(', ')})`,
  );
  try {
    return await meanMs(rounds, async (i) =>
      statement.all(
        'big',
        LEDGER_LOG,
        ...Array.from({ length: hashes }, (_, k) => (i * 7919 + k * 104_729) % leaves),
      ),
    );
  } finally {
    db.close();
  }
}

async function main(): Promise<void> {
  const leaves = option('leaves', 100_000);
  const mints = option('mints', 2000);
  const dir = await mkdtemp(join(tmpdir(), 'runledger-merkle-bench-'));
  const file = join(dir, 'bench.sqlite');
  const storage = await openSqliteStorage({ file });
  try {
    await seedOrg(storage, 'chain', mints);
    await seedOrg(storage, 'tree', mints);
    await seedOrg(storage, 'big', 0);
    const [floor, withTree] = await mintRates(storage, mints);
    console.log(
      `mint-like write transactions (SQLite file, ${mints} each, one at a time, interleaved):`,
    );
    console.log(`  receipt row only              ${floor.toFixed(0)} /s`);
    console.log(
      `  receipt row + tree append     ${withTree.toFixed(0)} /s   ratio ${(withTree / floor).toFixed(2)}`,
    );

    for (let done = 0; done < leaves; done += 10_000) {
      const batch = Array.from({ length: Math.min(10_000, leaves - done) }, () => randomBytes(32));
      await storage.write((tx) => appendLeaves(tx, 'big', LEDGER_LOG, batch));
    }
    const rounds = 500;
    const sizeRead = await meanMs(rounds, () =>
      storage.read((tx) => tx.merkle.size('big', LEDGER_LOG)),
    );
    const inclusion = await meanMs(rounds, (i) =>
      storage.read((tx) => inclusionProofAt(tx, 'big', LEDGER_LOG, (i * 7919) % leaves, leaves)),
    );
    const consistency = await meanMs(rounds, (i) =>
      storage.read((tx) =>
        consistencyProofAt(tx, 'big', LEDGER_LOG, 1 + ((i * 7919) % leaves), leaves),
      ),
    );
    const hashes = Math.ceil(Math.log2(leaves));
    const proofFloor = await rawPointReadsMs(file, rounds, hashes, leaves);
    console.log(
      `proofs at ${leaves} leaves (mean of ${rounds}, each in its own read transaction):`,
    );
    console.log(
      `  floor: better-sqlite3, ${hashes} PK rows in one read ${proofFloor.toFixed(3)} ms   (the driver, no storage layer)`,
    );
    console.log(`  storage read tx, one PK row     ${sizeRead.toFixed(3)} ms`);
    console.log(
      `  inclusion proof               ${inclusion.toFixed(3)} ms   ratio ${(proofFloor / inclusion).toFixed(2)}`,
    );
    console.log(
      `  consistency proof             ${consistency.toFixed(3)} ms   ratio ${(proofFloor / consistency).toFixed(2)}`,
    );
    console.log("  ratios are the floor's time over each proof's");
  } finally {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
