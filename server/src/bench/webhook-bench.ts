/**
 * `npm run bench:webhooks`: webhook delivery throughput to a local receiver, and the mint rate of an
 * organization with one subscribed endpoint against one without, in the same run, on a real SQLite
 * file (or PostgreSQL with DATABASE_URL). Prints figures; no pass/fail (docs/benchmarks.md).
 *
 *   node server/dist/bench/webhook-bench.js [--mints N] [--rounds R] [--deliveries N]
 */
import { createHmac, randomBytes } from 'node:crypto';
import { Agent, createServer, request } from 'node:http';
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
import { loopPacer } from '../webhooks/pacer.js';
import { startWebhookWorker } from '../webhooks/worker.js';
import { approvedRun, benchRunledger, parallel, signUp } from './seed.js';

type SignedUp = Awaited<ReturnType<typeof signUp>>;

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

/** Queues `n` events for the hooked organization at once; signed deliveries per second. */
async function deliveryRate(
  storage: Storage,
  orgId: string,
  n: number,
  received: () => number,
  wake: () => void,
): Promise<number> {
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
  return n / ((performance.now() - started) / 1000);
}

/**
 * The platform's floor for a delivery: node:crypto's HMAC-SHA256 over `id.timestamp.body` and a
 * keep-alive node:http POST to the same receiver, as many in flight as the worker (4 loops of 64),
 * with no outbox, no claim and no record.
 */
async function bareDeliveryRate(url: string, n: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const key = randomBytes(32);
  const body = JSON.stringify({ type: 'audit.recorded', timestamp: new Date().toISOString() });
  const post = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const id = `msg_${i}`;
      const ts = Math.floor(Date.now() / 1000);
      const sig = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');
      const headers = {
        'webhook-id': id,
        'webhook-timestamp': String(ts),
        'webhook-signature': `v1,${sig}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      };
      request(url, { method: 'POST', agent, headers }, (res) => {
        res.resume();
        res.on('end', resolve);
      })
        .on('error', reject)
        .end(body);
    });
  const started = performance.now();
  try {
    await parallel(n, 256, post);
  } finally {
    agent.destroy();
  }
  return n / ((performance.now() - started) / 1000);
}

/** Mints per second by round, for the organization without an endpoint and each hooked one. */
type MintRates = Record<Org, number[]>;

/** No endpoint; one endpoint on `receipt.minted`; one on `receipt.minted` and `audit.recorded`. */
const ORGS = ['plain', 'minted', 'minted+audit'] as const;
type Org = (typeof ORGS)[number];

/**
 * `rounds` rounds of `mints` per organization; the order turns each round (plain, minted,
 * minted+audit; then minted, minted+audit, plain; …), so a drift over the run (the database
 * growing, the machine's other load) falls on each alike. The worker delivers meanwhile.
 */
async function mintRates(
  rl: Runledger,
  orgs: Record<Org, SignedUp>,
  mints: number,
  rounds: number,
): Promise<MintRates> {
  const rates: MintRates = { plain: [], minted: [], 'minted+audit': [] };
  for (let round = 0; round < rounds; round++) {
    const order = ORGS.map((_, i) => ORGS[(i + round) % ORGS.length]!);
    for (const which of order) {
      const org = orgs[which];
      const runs = await prepared(rl, org.me, org.projectId, mints);
      rates[which].push(await mintRate(rl, org.me, runs));
    }
  }
  return rates;
}

function printMintRates(rates: MintRates): void {
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const list = (xs: number[]) => xs.map((r) => r.toFixed(2)).join(', ');
  const plain = mean(rates.plain);
  console.log(`mints/s without an endpoint: ${plain.toFixed(0)} (rounds: ${list(rates.plain)})`);
  for (const org of ['minted', 'minted+audit'] as const) {
    const ratios = rates[org].map((r, i) => r / rates.plain[i]!);
    console.log(
      `mints/s with one endpoint on ${org}: ${mean(rates[org]).toFixed(0)}; ratio ${(mean(rates[org]) / plain).toFixed(2)} (by round: ${list(ratios)})`,
    );
  }
}

async function main(): Promise<void> {
  const mints = option('mints', 3000);
  const rounds = option('rounds', 4);
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
    pacer: loopPacer(),
  });
  try {
    const orgs = {
      plain: await signUp(rl, 'plain@example.com'),
      minted: await signUp(rl, 'minted@example.com'),
      'minted+audit': await signUp(rl, 'audited@example.com'),
    };
    await hooks.create(orgs.minted.me, { url: sink.url, events: ['receipt.minted'] });
    await hooks.create(orgs['minted+audit'].me, {
      url: sink.url,
      events: ['receipt.minted', 'audit.recorded'],
    });
    console.log(
      `engine: ${url ? 'postgres' : 'sqlite'}; ${rounds} rounds of ${mints} mints per organization, 16 in flight`,
    );
    printMintRates(await mintRates(rl, orgs, mints, rounds));
    while (sink.count() < mints * rounds * 3) await new Promise((r) => setTimeout(r, 20));
    const floor = await bareDeliveryRate(sink.url, deliveries);
    const rate = await deliveryRate(
      storage,
      orgs['minted+audit'].orgId,
      deliveries,
      sink.count,
      () => worker.wake(),
    );
    console.log(
      `deliveries: ${rate.toFixed(0)}/s signed and recorded; floor (HMAC and a bare POST, same receiver): ${floor.toFixed(0)}/s; ratio ${(rate / floor).toFixed(2)}`,
    );
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
