import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, stat, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatExportHeader, formatExportLine } from '../export/format.js';
import { sha256HexPure } from '../hash/sha256.js';
import { defaultThreadCount } from '../platform/block-threads.js';
import { ReceiptTree } from '../ledger/receipt-tree.js';
import { signCheckpoint } from '../ledger/signed-checkpoint.js';
import { trustVkey } from '../note/keyring.js';
import { formatVkey, noteSigner } from '../note/keys.js';
import { verifyExportFile } from '../io/verify-files.js';
import { GENESIS_PARENT } from '../receipts/id.js';
import { generateChain, realisticPayload } from '../testing/chain.js';

/**
 * Streaming verifier throughput (every check, the Merkle root and the checkpoint signature
 * included), in one thread and with worker threads, against two floors on one generated, signed
 * export, and the verifier's peak memory: the honest floor (platform calls only: 256 KiB reads,
 * Buffer.indexOf line splitting, JSON.parse once, node:crypto SHA-256 per line, in one thread)
 * and, for comparison with earlier figures, the old one (readline + pure-JS SHA-256). CPU seconds are printed beside wall seconds:
 * on a shared machine they say more than the wall clock.
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

/** The bench's signing key: fixed, so runs are comparable. */
const SIGNER = noteSigner('bench.runledger.example', new Uint8Array(32).fill(42));
const KEYS = [trustVkey(formatVkey(SIGNER.name, SIGNER.publicKey))];

/** Writes a signed export: receipts to a body file (growing the tree), then header + body. */
async function writeExport(path: string, count: number): Promise<void> {
  const bodyPath = `${path}.body`;
  const body = createWriteStream(bodyPath);
  const tree = new ReceiptTree();
  let head = GENESIS_PARENT;
  for (const entry of generateChain(count, (seq, parent) =>
    realisticPayload('org_bench', seq, parent),
  )) {
    head = entry.receipt_sha256;
    tree.add(head);
    if (!body.write(formatExportLine(entry) + '\n')) await once(body, 'drain');
  }
  body.end();
  await once(body, 'finish');
  const checkpoint = signCheckpoint(
    {
      origin: 'bench.runledger.example/orgs/org_bench',
      size: tree.size,
      rootHash: tree.root(),
      time: '2025-06-01T00:00:00.000Z',
    },
    SIGNER,
  );
  const header = formatExportHeader({
    org_id: 'org_bench',
    exported_at: '2025-06-01T00:00:00.000Z',
    count,
    head_sha256: head,
    checkpoint,
  });
  await writeFile(path, header + '\n');
  await pipeline(createReadStream(bodyPath), createWriteStream(path, { flags: 'a' }));
  await rm(bodyPath);
}

/** The old floor: readline, JSON.parse and the pure-JS SHA-256 of each line. */
async function readlineFloor(path: string): Promise<number> {
  let n = 0;
  const input = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let first = true;
  for await (const line of lines) {
    if (first) {
      first = false;
      continue;
    }
    JSON.parse(line);
    sha256HexPure(line);
    n += 1;
  }
  return n;
}

/** The honest floor's read size. */
const FLOOR_BLOCK = 256 << 10;

/**
 * The honest floor, what the hardware allows in one thread, with platform calls only (none of the
 * verifier's own code): 256 KiB `FileHandle.read`s, lines found with `Buffer.indexOf`, JSON.parse
 * of each line once, and node:crypto's one-shot SHA-256 of the same bytes. The header line is
 * read like the others and not counted.
 */
async function honestFloor(path: string): Promise<number> {
  let n = -1;
  const onLine = (bytes: Buffer) => {
    n += 1;
    if (n === 0) return;
    JSON.parse(bytes.toString('utf8'));
    hash('sha256', bytes, 'hex');
  };
  const file = await open(path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(FLOOR_BLOCK);
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) {
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, filled);
        buffer = bigger;
      }
      const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, null);
      const end = filled + bytesRead;
      let start = 0;
      for (let nl = buffer.indexOf(10, 0); nl !== -1 && nl < end; nl = buffer.indexOf(10, start)) {
        onLine(buffer.subarray(start, nl));
        start = nl + 1;
      }
      if (bytesRead === 0) {
        if (start < end) onLine(buffer.subarray(start, end));
        return n;
      }
      buffer.copy(buffer, 0, start, end);
      filled = end - start;
    }
  } finally {
    await file.close();
  }
}

interface Timed<T> {
  value: T;
  seconds: number;
  /** CPU seconds of the whole process (worker threads included) while it ran. */
  cpu: number;
}

async function timed<T>(fn: () => Promise<T>): Promise<Timed<T>> {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return {
    value,
    seconds: Number(process.hrtime.bigint() - start) / 1e9,
    cpu: (used.user + used.system) / 1e6,
  };
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

/** Verifies one file in a fresh process and returns that process's peak RSS in bytes. */
function verifierPeakRss(path: string, threads: number): number {
  const child = spawnSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--rss-of', path, '--threads', String(threads)],
    { encoding: 'utf8' },
  );
  if (child.status !== 0) throw new Error(`verifier child failed: ${child.stderr}`);
  return Number(child.stdout.trim());
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const rssOf = argv.indexOf('--rss-of');
  if (rssOf !== -1) {
    const threads = Number(argv[argv.indexOf('--threads') + 1]);
    const result = await verifyExportFile(argv[rssOf + 1] as string, { keys: KEYS, threads });
    if (!result.ok) throw new Error('bench export did not verify');
    // resourceUsage().maxRSS is in kilobytes.
    console.log(process.resourceUsage().maxRSS * 1024);
    return;
  }
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

    const threads = defaultThreadCount();
    // Each measured twice, interleaved, keeping the faster run: the first pass also warms the page cache and JIT.
    const best: Record<'old' | 'honest' | 'single' | 'threaded', Timed<number> | undefined> = {
      old: undefined,
      honest: undefined,
      single: undefined,
      threaded: undefined,
    };
    const keep = (key: keyof typeof best, run: Timed<number>) => {
      if (run.value !== count) throw new Error(`${key} saw ${run.value} receipts, not ${count}`);
      const was = best[key];
      if (was === undefined || run.seconds < was.seconds) best[key] = run;
    };
    const verified = async (n: number) => {
      const result = await verifyExportFile(path, { keys: KEYS, threads: n });
      if (!result.ok || result.authorship.status !== 'verified') {
        throw new Error(
          `bench export did not verify: ${JSON.stringify(result.errors.slice(0, 3))}`,
        );
      }
      return result.receipts_checked;
    };
    for (let round = 0; round < 2; round += 1) {
      keep('old', await timed(() => readlineFloor(path)));
      keep('honest', await timed(() => honestFloor(path)));
      keep('single', await timed(() => verified(0)));
      keep('threaded', await timed(() => verified(threads)));
    }
    const honest = best.honest!;
    const line = (label: string, run: Timed<number>) =>
      console.log(
        `${label.padEnd(62)} ${rate(count, run.seconds).padStart(20)} (${run.seconds.toFixed(2)} s, ${run.cpu.toFixed(2)} CPU s)` +
          (run === honest ? '' : `  ratio ${(honest.seconds / run.seconds).toFixed(2)}`),
      );
    line('old floor (readline + JSON.parse + pure-JS sha256)', best.old!);
    line('honest floor (256 KiB reads + JSON.parse + node:crypto sha256)', honest);
    line('verifier, one thread (chain + Merkle root + signed checkpoint)', best.single!);
    line(`verifier, ${threads} worker threads + the reading thread`, best.threaded!);
    console.log(
      `ratios are the honest floor's time over each one's; per CPU second, the one-thread verifier does ${(honest.cpu / best.single!.cpu).toFixed(2)} of the floor's work`,
    );
    console.log(
      `verifier peak RSS, alone in its own process: ${mb(verifierPeakRss(path, 0))} in one thread, ${mb(verifierPeakRss(path, threads))} with ${threads} worker threads`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
