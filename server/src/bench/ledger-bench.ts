/**
 * `npm run bench:ledger`: mint throughput as one organization's chain grows, on a real SQLite file.
 * Minting must read only the org head, so its rate should stay flat from the first receipt to the
 * last; verification and export stream, so their memory should stay flat too. Prints a table; no
 * pass/fail (speed is measured here, never asserted in tests).
 *
 *   node server/dist/bench/ledger-bench.js [--receipts N] [--window W]
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSqliteStorage } from '@runledger/adapters';
import { approvedRun, benchRunledger, signUp } from './seed.js';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`--${name} needs a positive integer`);
  return value;
}

/**
 * The floor of a mint: durable writes one after another, as one client's mints are. Each is a 4 KiB
 * write and an fdatasync of a file in the same directory (node:fs, nothing of ours), which is what
 * one committed mint costs the disk at the least.
 */
async function durableWritesPerSecond(dir: string, count: number): Promise<number> {
  const file = await open(join(dir, 'floor.bin'), 'w');
  const page = Buffer.alloc(4096, 1);
  try {
    const started = performance.now();
    for (let i = 0; i < count; i += 1) {
      await file.write(page, 0, page.length, i * page.length);
      await file.datasync();
    }
    return count / ((performance.now() - started) / 1000);
  } finally {
    await file.close();
  }
}

async function main(): Promise<void> {
  const total = option('receipts', 3000);
  const window = option('window', 500);
  const dir = await mkdtemp(join(tmpdir(), 'runledger-ledger-bench-'));
  const storage = await openSqliteStorage({ file: join(dir, 'runledger.sqlite') });
  const { rl, close } = await benchRunledger(storage, dir);
  try {
    const { me, projectId } = await signUp(rl, 'bench@example.com');

    console.log(
      `minting ${total} receipts into one organization's chain (SQLite, synchronous=FULL)`,
    );
    const floor = await durableWritesPerSecond(dir, 500);
    console.log(
      `floor: ${floor.toFixed(0)} durable 4 KiB writes/s one after another (node:fs write + fdatasync, same directory)`,
    );
    console.log('chain length   mints/s (this window)   mean ms per mint   ÷ floor');
    let minted = 0;
    let windowMs = 0;
    while (minted < total) {
      const runId = await approvedRun(rl, me, projectId, `run ${minted}`);
      const started = performance.now();
      await rl.runs.mintReceipt(me, runId);
      windowMs += performance.now() - started;
      minted += 1;
      if (minted % window === 0 || minted === total) {
        const n = minted % window === 0 ? window : minted % window;
        console.log(
          `${String(minted).padStart(12)}   ${(n / (windowMs / 1000)).toFixed(0).padStart(21)}   ${(windowMs / n).toFixed(2).padStart(16)}   ${(n / (windowMs / 1000) / floor).toFixed(2).padStart(7)}`,
        );
        windowMs = 0;
      }
    }

    const heapBefore = process.memoryUsage().heapUsed;
    let started = performance.now();
    const verified = await rl.ledger.verify(me);
    const verifyMs = performance.now() - started;
    started = performance.now();
    let lines = 0;
    for await (const _line of rl.ledger.export(me)) lines += 1;
    const exportMs = performance.now() - started;
    const heapGrowth = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    console.log(
      `verify: ok=${verified.ok}, ${verified.receipts_checked} receipts in ${verifyMs.toFixed(0)} ms ` +
        `(${(verified.receipts_checked / (verifyMs / 1000)).toFixed(0)}/s)`,
    );
    console.log(
      `export: ${lines} lines in ${exportMs.toFixed(0)} ms; heap growth over both ${heapGrowth.toFixed(1)} MB`,
    );
  } finally {
    await storage.close();
    await close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
