/**
 * `npm run bench:webhooks`: webhook delivery throughput to a local receiver, and the mint rate of an
 * organization with one subscribed endpoint against one without, in the same run, on a real SQLite
 * file (or PostgreSQL with DATABASE_URL). Prints figures; no pass/fail (docs/benchmarks.md).
 *
 *   node server/dist/bench/webhook-bench.js [--mints N] [--deliveries N]
 */
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import {
  cryptoRandom,
  openPostgresStorage,
  openSqliteStorage,
  systemClock,
} from '@runledger/adapters';
import { STANDARD_RETRY_SECONDS, webhookUseCases } from '@runledger/core/adapter';
import { type Runledger } from '@runledger/core';
import type { Actor } from '@runledger/core';
import type { Storage } from '@runledger/core/ports';
import { parseAllowList } from '../webhooks/address-policy.js';
import { secretBox } from '../webhooks/secret-box.js';
import { createSender } from '../webhooks/sender.js';
import { urlGuard } from '../webhooks/url-guard.js';
import { startWebhookWorker } from '../webhooks/worker.js';
import { approvedRun, benchRunledger, parallel, signUp } from './seed.js';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`--${name} needs a positive integer`);
  return value;
}

/** A receiver that answers 204 to everything and counts what it got. */
async function receiver() {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    count: () => count,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** Mints `runs` with 16 in flight; mints per second. */
async function mintRate(rl: Runledger, me: Actor, runs: string[]): Promise<number> {
  const started = performance.now();
  await parallel(runs.length, 16, async (i) => void (await rl.runs.mintReceipt(me, runs[i]!)));
  return runs.length / ((performance.now() - started) / 1000);
}

async function prepared(rl: Runledger, me: Actor, projectId: string, n: number) {
  const runs: string[] = [];
  await parallel(
    n,
    8,
    async (i) => void runs.push(await approvedRun(rl, me, projectId, `run ${i}`)),
  );
  return runs;
}

/** Queues `n` events for the hooked organization at once and times their signed delivery. */
async function deliveryRate(
  storage: Storage,
  orgId: string,
  n: number,
  received: () => number,
  wake: () => void,
): Promise<void> {
  const now = new Date().toISOString();
  const events = Array.from({ length: n }, (_, i) => ({
    org_id: orgId,
    type: 'audit.recorded',
    payload_text: JSON.stringify({ type: 'audit.recorded', timestamp: now, data: { i } }),
    created_at: now,
  }));
  await storage.write((tx) => tx.webhookOutbox.emit(events, now));
  const before = received();
  const started = performance.now();
  wake();
  while (received() - before < n) await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `deliveries: ${n} signed deliveries in ${seconds.toFixed(2)} s = ${(n / seconds).toFixed(0)}/s`,
  );
}

async function main(): Promise<void> {
  const mints = option('mints', 300);
  const deliveries = option('deliveries', 5000);
  const dir = await mkdtemp(join(tmpdir(), 'runledger-webhook-bench-'));
  const url = process.env['DATABASE_URL'];
  const storage: Storage = url
    ? await openPostgresStorage({ connectionString: url })
    : await openSqliteStorage({ file: join(dir, 'runledger.sqlite') });
  const { rl, close } = await benchRunledger(storage, dir);
  const sink = await receiver();
  const allow = parseAllowList('127.0.0.1/32')!;
  const box = secretBox('bench-secret-bench-secret-bench-secret');
  const clock = systemClock();
  const hooks = webhookUseCases(
    { storage, clock, random: cryptoRandom() },
    { box, guard: urlGuard({ allow, httpsOnly: false }) },
  );
  const sender = createSender(allow);
  const worker = startWebhookWorker({
    storage,
    box,
    sender,
    clock,
    logger: pino({ level: 'silent' }),
    schedule: STANDARD_RETRY_SECONDS,
    pollMs: 20,
    batch: 64,
    loops: 4,
    leaseMs: 60_000,
  });
  try {
    const plain = await signUp(rl, 'plain@example.com');
    const hooked = await signUp(rl, 'hooked@example.com');
    await hooks.create(hooked.me, { url: sink.url, events: ['receipt.minted', 'audit.recorded'] });
    console.log(`engine: ${url ? 'postgres' : 'sqlite'}; ${mints} mints per phase, 16 in flight`);
    const rates = { plain: [] as number[], hooked: [] as number[] };
    for (let round = 0; round < 2; round++) {
      const a = await prepared(rl, plain.me, plain.projectId, mints / 2);
      const b = await prepared(rl, hooked.me, hooked.projectId, mints / 2);
      rates.plain.push(await mintRate(rl, plain.me, a));
      rates.hooked.push(await mintRate(rl, hooked.me, b));
    }
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    console.log(
      `mints/s without an endpoint: ${mean(rates.plain).toFixed(0)} (${rates.plain.map((r) => r.toFixed(0)).join(', ')})`,
    );
    console.log(
      `mints/s with one subscribed endpoint (worker delivering meanwhile): ${mean(rates.hooked).toFixed(0)} (${rates.hooked.map((r) => r.toFixed(0)).join(', ')})`,
    );
    console.log(`ratio: ${(mean(rates.hooked) / mean(rates.plain)).toFixed(2)}`);
    while (sink.count() < mints * 2) await new Promise((r) => setTimeout(r, 20));
    await deliveryRate(storage, hooked.orgId, deliveries, sink.count, () => worker.wake());
  } finally {
    await worker.stop();
    sender.close();
    await sink.close();
    await storage.close();
    await close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
