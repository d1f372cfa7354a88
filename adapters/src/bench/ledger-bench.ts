/**
 * `npm run bench:ledger`: mint throughput as one organization's chain grows, on a real SQLite file.
 * Minting must read only the org head, so its rate should stay flat from the first receipt to the
 * last; verification and export stream, so their memory should stay flat too. Prints a table; no
 * pass/fail (speed is measured here, never asserted in tests).
 *
 *   node adapters/dist/bench/ledger-bench.js [--receipts N] [--window W]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { testCheckpointSigner } from '@runledger/core/testing';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRunledger, defaultRunledgerConfig, type Actor } from '@runledger/core';
import { openFileBlobStore } from '../files/index.js';
import { consoleMailer } from '../mail/index.js';
import { openJsonlReceiptSink } from '../receipts/index.js';
import { openSqliteStorage } from '../sqlite/index.js';
import { cryptoRandom, systemClock } from '../system.js';

const REPORT = {
  task: 'Summarize the quarterly incident reports',
  status: 'completed',
  agent: { name: 'scribe', model: 'm-1' },
  steps: [
    { name: 'fetch reports', tool: 'http', outcome: 'ok', duration_ms: 1200, cost_usd: '0.10' },
    { name: 'summarize', tool: 'llm', outcome: 'ok', duration_ms: 5400, cost_usd: '0.20' },
  ],
  totals: { cost_usd: '0.30', duration_ms: 6600 },
  budget_usd: '1.00',
  summary: 'Four incidents, all resolved.',
};

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`--${name} needs a positive integer`);
  return value;
}

async function main(): Promise<void> {
  const total = option('receipts', 3000);
  const window = option('window', 500);
  const dir = await mkdtemp(join(tmpdir(), 'runledger-ledger-bench-'));
  const storage = await openSqliteStorage({ file: join(dir, 'runledger.sqlite') });
  const receiptSink = await openJsonlReceiptSink(join(dir, 'receipts'));
  const rl = createRunledger(
    {
      storage,
      blobs: await openFileBlobStore(join(dir, 'blobs')),
      receiptSink,
      clock: systemClock(),
      random: cryptoRandom(),
      mailer: consoleMailer(() => undefined),
      checkpointSigner: testCheckpointSigner(),
    },
    defaultRunledgerConfig,
  );
  try {
    const link = new URL((await rl.auth.requestLink('bench@example.com')).dev_link ?? '');
    const { user, org } = await rl.auth.verifyLink(link.searchParams.get('token') ?? '');
    const me: Actor = await rl.auth.resolveUser(user.id, org.id);
    const project = await rl.projects.create(me, { name: 'bench' });

    console.log(
      `minting ${total} receipts into one organization's chain (SQLite, synchronous=FULL)`,
    );
    console.log('chain length   mints/s (this window)   mean ms per mint');
    let minted = 0;
    let windowMs = 0;
    while (minted < total) {
      const run = await rl.runs.create(me, {
        project_id: project.id,
        flight_sheet_id: 'agent-task-report',
        title: `run ${minted}`,
      });
      await rl.runs.addEvidence(me, run.id, { kind: 'log', label: 'log', content: 'ok' });
      await rl.runs.submit(me, run.id, REPORT);
      await rl.runs.audit(me, run.id);
      await rl.runs.approve(me, run.id, { decision: 'approved', note: 'bench' });
      const started = performance.now();
      await rl.runs.mintReceipt(me, run.id);
      windowMs += performance.now() - started;
      minted += 1;
      if (minted % window === 0 || minted === total) {
        const n = minted % window === 0 ? window : minted % window;
        console.log(
          `${String(minted).padStart(12)}   ${(n / (windowMs / 1000)).toFixed(0).padStart(21)}   ${(windowMs / n).toFixed(2).padStart(16)}`,
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
    await receiptSink.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
