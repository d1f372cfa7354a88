import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatExportHeader, formatExportLine } from '../export/format.js';
import { sha256Hex } from '../hash/sha256.js';
import { readLines } from '../io/lines.js';
import { verifyExportFile } from '../io/verify-files.js';
import { GENESIS_PARENT } from '../receipts/id.js';
import { generateChain, realisticPayload } from '../testing/chain.js';

/**
 * Streaming verifier throughput against the floor (read lines, JSON.parse and SHA-256 each line,
 * nothing else) on one generated export, and the verifier's peak memory.
 * Usage: node verify-tool/dist/bench/verify-bench.js [--quick | --count N]
 * Without options it measures 100,000 and then 1,000,000 receipts; --quick measures 100,000 only.
 */

const DEFAULT_COUNTS = [100_000, 1_000_000];

function countArg(argv: readonly string[]): number | undefined {
  const at = argv.indexOf('--count');
  if (at === -1) return undefined;
  const n = Number(argv[at + 1]);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error('--count needs a positive integer');
  return n;
}

async function writeExport(path: string, count: number): Promise<void> {
  const header = (head: string) =>
    formatExportHeader({
      org_id: 'org_bench',
      exported_at: '2025-06-01T00:00:00.000Z',
      count,
      head_sha256: head,
    });
  const out = createWriteStream(path);
  // The head is known only at the end; the header is rewritten in place (same length) afterwards.
  out.write(header(GENESIS_PARENT) + '\n');
  let head = GENESIS_PARENT;
  for (const entry of generateChain(count, (seq, parent) =>
    realisticPayload('org_bench', seq, parent),
  )) {
    head = entry.receipt_sha256;
    if (!out.write(formatExportLine(entry) + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const file = await open(path, 'r+');
  await file.write(header(head) + '\n', 0);
  await file.close();
}

async function floor(path: string): Promise<number> {
  let n = 0;
  let first = true;
  for await (const line of readLines(path)) {
    if (first) {
      first = false;
      continue;
    }
    JSON.parse(line);
    sha256Hex(line);
    n += 1;
  }
  return n;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { value, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const rate = (n: number, s: number) => `${Math.round(n / s).toLocaleString('en-US')} receipts/s`;

/** Each size runs in its own process, so one size's peak memory is not the other's. */
function runEachSize(counts: readonly number[]): void {
  const self = fileURLToPath(import.meta.url);
  for (const count of counts) {
    const child = spawnSync(process.execPath, [self, '--count', String(count)], {
      stdio: 'inherit',
    });
    if (child.status !== 0) throw new Error(`bench with --count ${count} failed`);
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const count = countArg(argv);
  if (count === undefined) {
    runEachSize(argv.includes('--quick') ? DEFAULT_COUNTS.slice(0, 1) : DEFAULT_COUNTS);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'runledger-bench-'));
  const path = join(dir, 'export.ndjson');
  try {
    const generated = await timed(() => writeExport(path, count));
    const size = (await stat(path)).size;
    console.log(
      `export: ${count.toLocaleString('en-US')} receipts, ${mb(size)} (${Math.round(size / count)} B/line), written in ${generated.seconds.toFixed(1)} s`,
    );

    let peakRss = process.memoryUsage().rss;
    let peakHeap = process.memoryUsage().heapUsed;
    const sample = () => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    };
    // Each measured twice, interleaved, keeping the faster run: the first pass also warms the page cache and JIT.
    let best = { floor: Infinity, verifier: Infinity };
    for (let round = 0; round < 2; round += 1) {
      const f = await timed(() => floor(path));
      const v = await timed(() =>
        verifyExportFile(path, { progressEvery: 5_000, onProgress: sample }),
      );
      if (f.value !== count || !v.value.ok || v.value.receipts_checked !== count) {
        throw new Error(
          `bench export did not verify: ${JSON.stringify(v.value.errors.slice(0, 3))}`,
        );
      }
      best = {
        floor: Math.min(best.floor, f.seconds),
        verifier: Math.min(best.verifier, v.seconds),
      };
    }
    console.log(
      `floor (readline + JSON.parse + sha256 per line): ${rate(count, best.floor)} (${best.floor.toFixed(2)} s)`,
    );
    console.log(
      `streaming verifier:                            ${rate(count, best.verifier)} (${best.verifier.toFixed(2)} s)`,
    );
    console.log(`ratio verifier/floor: ${(best.floor / best.verifier).toFixed(2)}`);
    console.log(`verifier peak RSS ${mb(peakRss)}, peak heap used ${mb(peakHeap)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
