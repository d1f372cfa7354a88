/**
 * `npm run bench:http`: the real server as a child process (SQLite; PostgreSQL too when `--pg <url>`
 * or BENCH_DATABASE_URL names a database server), driven over keep-alive HTTP from this process.
 * Prints a table and writes a JSON file: the floor (node:http alone, in its own process, answering
 * /health), the server's own /health, authenticated reads, mint only, the full run flow, and router
 * lease → accept → complete, each with rate, p50, p99 and its ratio to the floor measured in the
 * same run; then mint p50 when one chain holds 10^3 vs 10^5 receipts (10^6 with --long).
 * No pass/fail: speed is measured here, never asserted in tests.
 *
 *   node server/dist/bench/http-bench.js [--seconds S] [--pg URL] [--long] [--json FILE] [--server MAIN]
 *     [--profile DIR]   (the server writes a V8 CPU profile per engine into DIR: node --cpu-prof)
 *     [--skip read,mint,chain,flow,lease,sqlite]   (leaves those phases, or the SQLite engine, out)
 *     [--open-loop 1000,1500,2000,2500]   (also mints at each fixed offered rate, Poisson arrivals,
 *      latency from the scheduled arrival: p50, p99, p99.9; see open-loop.ts)
 *     [--statements FILE]   (SQLite: each statement's µs per mint over the first open-loop rate's
 *      window, timed inside the server; FILE receives the raw totals; see statement-report.ts)
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPostgresStorage, openSqliteStorage } from '@runledger/adapters';
import type { Storage } from '@runledger/core/ports';
import pg from 'pg';
import { freePort, startBareHttpChild, startServerChild } from './child.js';
import { statementTiming, type StatementLine } from './statement-report.js';
import { processCpuSeconds, processesCpuSeconds } from './cpu.js';
import { cpuReader, httpClient, type CpuReader, type Figures } from './load.js';
import { driveOpenLoop, type OpenLoopFigures } from './open-loop.js';
import {
  logSyncText,
  logSyncWindow,
  syncBuckets,
  type LogSyncWindow,
  type SyncBuckets,
} from './log-sync.js';
import { authenticatedRead, fullFlow, health, leaseFlow, mintOnly, signIn } from './phases.js';
import { seed, type SeededOrg } from './seed.js';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const value = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};

const seconds = Number(value('seconds') ?? 5);
const pgUrl = value('pg') ?? process.env['BENCH_DATABASE_URL'];
const longChain = Number(value('chain') ?? (flag('long') ? 1_000_000 : 100_000));
const serverMain = value('server') ?? fileURLToPath(new URL('../main.js', import.meta.url));
const profileDir = value('profile');
const statementsFile = value('statements');
const skip = new Set((value('skip') ?? '').split(','));
const jsonOut = value('json') ?? join(tmpdir(), `runledger-bench-http-${Date.now()}.json`);
const openLoopRates = (value('open-loop') ?? '')
  .split(',')
  .filter((rate) => rate !== '')
  .map(Number);
const REGISTRATION_KEY = 'bench-registration-key-0123456789';
const CHAIN_MINTS = 300;
/** Untimed open-loop seconds at the first rate before the measured ones (sockets, the org's log). */
const WARM_UP_SECONDS = 2;

/** An open-loop rate's figures and, on SQLite, the mints per group commit (null on PostgreSQL). */
type MintOpenLoopFigures = OpenLoopFigures & {
  mints_per_commit: number | null;
  /** The write-ahead log's syncs during the window (SQLite; null on PostgreSQL). */
  log_syncs: LogSyncWindow | null;
  /**
   * The share of the window the server's main thread was busy (its event loop's utilization): near
   * one, the CPU, not the disk, sets the tail.
   */
  main_thread_busy: number;
  /** The floor: p99 of GET /health on node:http alone, offered at the same rate in the same run. */
  floor_p99_ms: number;
  /**
   * The same floor's CPU microseconds per request, in node:http's process: what the machine charges
   * for receiving and answering one request at this rate, before any of the service's own work.
   */
  floor_cpu_us_per_op: number | null;
};

interface EngineResult {
  engine: string;
  phases: Record<string, Figures & { ratio_to_floor: number; double_leases?: number }>;
  chain: Record<string, { receipts_in_chain: number; mint_p50_ms: number }>;
  open_loop: MintOpenLoopFigures[];
}

async function withDatabase<T>(
  engine: 'sqlite' | 'postgres',
  dir: string,
  fn: (env: Record<string, string>, open: () => Promise<Storage>) => Promise<T>,
): Promise<T> {
  if (engine === 'sqlite') {
    return fn({}, () => openSqliteStorage({ file: join(dir, 'runledger.sqlite') }));
  }
  const name = `runledger_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(pgUrl!);
  url.pathname = `/${name}`;
  try {
    return await fn({ DATABASE_URL: url.toString() }, () =>
      openPostgresStorage({ connectionString: url.toString() }),
    );
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/**
 * The seeding (and the server's start-up backfill of the Merkle trees) wrote 10^5 rows in seconds,
 * faster than autovacuum refreshes PostgreSQL's statistics (about a minute): the planner would
 * still price the tables as empty. A deployment that grew to that size has statistics; so does this.
 */
async function analyze(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

/** The bench's organizations, seeded through the storage layer, which is closed after. */
function seedOrgs(engine: 'sqlite' | 'postgres', storage: Storage) {
  const mints = Math.round(seconds * (engine === 'sqlite' ? 3000 : 1500));
  console.log(
    `[${engine}] seeding ${mints} approved runs and chains of 10^3 and ${longChain} receipts…`,
  );
  const warmUp = openLoopRates[0] ?? 0;
  const openMints = Math.ceil(
    (openLoopRates.reduce((a, b) => a + b, 0) * seconds + warmUp * WARM_UP_SECONDS) * 1.1,
  );
  return seed(storage, [
    { email: 'mint@example.com', approved: mints, chain: 0 },
    {
      email: 'small@example.com',
      approved: CHAIN_MINTS + 1,
      chain: skip.has('chain') ? 0 : 1000,
    },
    {
      email: 'large@example.com',
      approved: CHAIN_MINTS + 1,
      chain: skip.has('chain') ? 0 : longChain,
    },
    { email: 'flow@example.com', approved: 0, chain: 0 },
    { email: 'open@example.com', approved: openMints, chain: 0 },
  ]).finally(() => storage.close());
}

/** Runs `measure` with node:http's own process as the `server` whose CPU each phase reads. */
function onBareCpu<T>(bare: { process: { pid?: number } }, measure: () => Promise<T>): Promise<T> {
  const pid = bare.process.pid ?? -1;
  return cpuReader.run(async () => ({ server: await processCpuSeconds(pid) }), measure);
}

/** GET /health on node:http alone: the platform's floor every phase's ratio divides by. */
async function bareHealth(): Promise<Figures> {
  const bare = await startBareHttpChild();
  const bareApi = httpClient(bare.url, 64);
  try {
    await health(bareApi, 1);
    return await onBareCpu(bare, () => health(bareApi, seconds));
  } finally {
    bareApi.close();
    await bare.stop();
  }
}

/** A mint's p50 at the end of a chain of 10^3 receipts and of the long chain. */
async function chainPhases(
  api: ReturnType<typeof httpClient>,
  small: SeededOrg,
  large: SeededOrg,
): Promise<EngineResult['chain']> {
  const chain: EngineResult['chain'] = {};
  for (const [label, org, n] of skip.has('chain')
    ? []
    : ([
        ['10^3', small, 1000],
        [`10^${Math.log10(longChain)}`, large, longChain],
      ] as const)) {
    const figures = await mintOnly(api, await signIn(api, org.email), org.approved, 1, 600);
    chain[label] = { receipts_in_chain: n, mint_p50_ms: figures.p50_ms };
  }
  return chain;
}

/** The statement timing `--statements` asks for: SQLite's statements only. */
function timingFor(engine: 'sqlite' | 'postgres') {
  return engine === 'sqlite' && statementsFile !== undefined
    ? statementTiming(statementsFile)
    : undefined;
}

async function benchEngine(engine: 'sqlite' | 'postgres'): Promise<EngineResult> {
  const dir = await mkdtemp(join(tmpdir(), 'runledger-bench-http-'));
  try {
    return await withDatabase(engine, dir, async (dbEnv, open) => {
      const [mint, small, large, flow, openOrg] = await seedOrgs(engine, await open());
      const metricsPort = await freePort();
      const timing = timingFor(engine);
      const server = await startServerChild(
        serverMain,
        {
          ...dbEnv,
          METRICS_PORT: String(metricsPort),
          DATA_DIR: dir,
          JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123',
          WORKER_REGISTRATION_KEY: REGISTRATION_KEY,
          ...timing?.env,
        },
        [
          ...(profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]),
          ...(timing?.nodeArgs ?? []),
        ],
      );
      if (dbEnv['DATABASE_URL'] !== undefined) await analyze(dbEnv['DATABASE_URL']);
      const api = httpClient(server.url, 64);
      // The server's CPU and, on PostgreSQL, every postgres process's (the engine's work happens
      // there instead of inside the server), read at each timed window's start and end.
      const pid = server.process.pid ?? -1;
      const readCpu: CpuReader = async () => ({
        server: await processCpuSeconds(pid),
        ...(engine === 'postgres' ? { database: await processesCpuSeconds('postgres') } : {}),
      });
      try {
        const phases: EngineResult['phases'] = {};
        const record = (name: string, figures: Figures & { double_leases?: number }) => {
          // The platform's floor: node:http alone, in its own process, under the same load.
          const floor = phases['node:http alone']?.rate ?? figures.rate;
          phases[name] = { ...figures, ratio_to_floor: figures.rate / floor };
          console.log(`[${engine}] ${name}: ${figures.rate.toFixed(0)}/s`);
        };
        return await cpuReader.run(readCpu, async () => {
          // Untimed warm-up first: a cold server (JIT, pools) would otherwise lower the floor.
          await health(api, 1);
          record('node:http alone', await bareHealth());
          record('health', await health(api, seconds));
          const authMint = await signIn(api, mint!.email);
          if (!skip.has('read'))
            record('authenticated read', await authenticatedRead(api, authMint, seconds));
          if (!skip.has('mint'))
            record('mint only', await mintOnly(api, authMint, mint!.approved, 64, seconds));
          const chain = await chainPhases(api, small!, large!);
          if (!skip.has('flow'))
            record(
              'full flow',
              await fullFlow(api, await signIn(api, flow!.email), flow!, seconds),
            );
          if (!skip.has('lease'))
            record(
              'lease → accept → complete',
              await leaseFlow(
                server.routerUrl,
                REGISTRATION_KEY,
                Math.round(seconds * 800),
                seconds,
              ),
            );
          const openLoop = await mintOpenLoop(
            server.url,
            `http://127.0.0.1:${metricsPort}/metrics`,
            await signIn(api, openOrg!.email),
            [...openOrg!.approved],
            timing === undefined ? undefined : { ...timing, pid },
          );
          return { engine, phases, chain, open_loop: openLoop };
        });
      } finally {
        api.close();
        await server.stop();
      }
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Receipts minted, group-commit batches and log syncs (SQLite's; none on PostgreSQL) and the main
 * thread's busy seconds so far, from /metrics, and when they were read.
 */
async function writerCounters(
  metricsUrl: string,
): Promise<{ mints: number; commits: number; syncs: SyncBuckets; loopBusy: number; at: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const sample = (name: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    return line === undefined ? 0 : Number(line.slice(name.length + 1));
  };
  return {
    mints: sample('runledger_receipts_minted_total'),
    commits: sample('runledger_storage_group_commit_batch_size_count'),
    syncs: syncBuckets(text),
    loopBusy: sample('runledger_event_loop_busy_seconds_total'),
    at: performance.now(),
  };
}

/**
 * p99 and CPU per request of GET /health on node:http alone, in its own process, offered at `rate`
 * like the mints.
 */
async function bareOpenLoopFloor(
  rate: number,
): Promise<Pick<MintOpenLoopFigures, 'floor_p99_ms' | 'floor_cpu_us_per_op'>> {
  const bare = await startBareHttpChild();
  const client = httpClient(bare.url, 1024, 4000);
  const get = async () => (await client.request('GET', '/health')).status === 200;
  try {
    await driveOpenLoop(rate, 1, get);
    const floor = await onBareCpu(bare, () => driveOpenLoop(rate, seconds, get));
    return {
      floor_p99_ms: floor.p99_ms,
      floor_cpu_us_per_op: floor.cpu_us_per_op['server'] ?? null,
    };
  } finally {
    client.close();
    await bare.stop();
  }
}

/** Mints at each offered rate in turn, from one pool of approved runs, on a client with room to queue. */
async function mintOpenLoop(
  url: string,
  metricsUrl: string,
  auth: Record<string, string>,
  runs: string[],
  timing?: Pick<ReturnType<typeof statementTiming>, 'start' | 'stop'> & { pid: number },
): Promise<MintOpenLoopFigures[]> {
  const client = httpClient(url, 1024, 4000);
  const figures: MintOpenLoopFigures[] = [];
  const mint = async () => {
    const run = runs.pop();
    if (run === undefined) return false;
    const reply = await client.request('POST', `/runs/${run}/receipt`, auth);
    if (reply.status !== 201) throw new Error(`HTTP ${reply.status}: ${reply.body.slice(0, 200)}`);
    return true;
  };
  try {
    // Untimed first, like every phase: the client's first connections and the organization's first
    // mints would otherwise land in the first rate's tail.
    if (openLoopRates[0] !== undefined)
      await driveOpenLoop(openLoopRates[0], WARM_UP_SECONDS, mint);
    for (const [i, rate] of openLoopRates.entries()) {
      const timed = i === 0 ? timing : undefined;
      const before = await writerCounters(metricsUrl);
      await timed?.start(timed.pid);
      const result = await driveOpenLoop(rate, seconds, mint);
      const after = await writerCounters(metricsUrl);
      if (timed !== undefined)
        printStatements(rate, await timed.stop(timed.pid, after.mints - before.mints));
      const commits = after.commits - before.commits;
      console.log(`mint at ${rate}/s offered: p99 ${result.p99_ms.toFixed(1)} ms`);
      figures.push({
        ...result,
        mints_per_commit: commits === 0 ? null : (after.mints - before.mints) / commits,
        log_syncs: logSyncWindow(before.syncs, after.syncs),
        main_thread_busy: ((after.loopBusy - before.loopBusy) * 1000) / (after.at - before.at),
        ...(await bareOpenLoopFloor(rate)),
      });
    }
  } finally {
    client.close();
  }
  return figures;
}

/** The statements' microseconds per mint over one rate's window, the 15 largest and the total. */
function printStatements(rate: number, lines: StatementLine[]): void {
  const total = lines.reduce((sum, line) => sum + line.us_per_mint, 0);
  console.log(`statements at ${rate}/s offered: ${total.toFixed(0)} µs per mint in all`);
  for (const line of lines.slice(0, 15)) {
    const calls = String(line.calls).padStart(8);
    console.log(
      `${line.us_per_mint.toFixed(1).padStart(8)} µs ${calls} calls  ${line.statement.slice(0, 110)}`,
    );
  }
}

/** `62 µs of CPU per request (server ÷ floor 8.1)`: node:http's CPU per request at the mints' rate. */
function floorCpuText(o: MintOpenLoopFigures): string {
  const floor = o.floor_cpu_us_per_op;
  const server = o.cpu_us_per_op['server'];
  if (floor === null || floor <= 0) return 'an unread CPU per request';
  const ratio =
    server === null || server === undefined
      ? ''
      : ` (server ÷ floor ${(server / floor).toFixed(1)})`;
  return `${floor.toFixed(0)} µs of CPU per request${ratio}`;
}

/** `client 80, server 450`: CPU microseconds per operation by process. */
function cpuText(perOp: Record<string, number | null>): string {
  return Object.entries(perOp)
    .map(([who, us]) => `${who} ${us === null ? '?' : us.toFixed(0)}`)
    .join(', ');
}

function printTable(results: EngineResult[]): void {
  const pad = (s: string, n: number) => s.padStart(n);
  console.log(
    `\n${'engine'.padEnd(9)}${'phase'.padEnd(28)}${pad('rate/s', 9)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('÷ floor', 9)}${pad('errors', 8)}   CPU µs per op`,
  );
  for (const r of results) {
    for (const [name, f] of Object.entries(r.phases)) {
      const extra = `   ${cpuText(f.cpu_us_per_op)}${f.double_leases === undefined ? '' : `; double leases: ${f.double_leases}`}`;
      console.log(
        `${r.engine.padEnd(9)}${name.padEnd(28)}${pad(f.rate.toFixed(0), 9)}${pad(f.p50_ms.toFixed(2), 9)}${pad(f.p99_ms.toFixed(2), 9)}${pad(f.ratio_to_floor.toFixed(2), 9)}${pad(String(f.errors), 8)}${extra}`,
      );
      for (const sample of f.error_samples) console.log(`${''.padEnd(9)}  error: ${sample}`);
    }
    for (const o of r.open_loop) {
      console.log(
        `${r.engine.padEnd(9)}${`mint at ${o.offered_rate}/s offered`.padEnd(28)}${pad(o.achieved_rate.toFixed(0), 9)}${pad(o.p50_ms.toFixed(2), 9)}${pad(o.p99_ms.toFixed(2), 9)}${pad((o.p99_ms / o.floor_p99_ms).toFixed(1), 9)}${pad(String(o.errors), 8)}   ${cpuText(o.cpu_us_per_op)}; floor p99 ${o.floor_p99_ms.toFixed(2)} ms at ${floorCpuText(o)}; p99.9 ${o.p999_ms.toFixed(2)} ms; generator lag at worst ${o.max_send_lag_ms.toFixed(1)} ms${o.mints_per_commit === null ? '' : `; ${o.mints_per_commit.toFixed(1)} mints per commit`}; main thread ${(o.main_thread_busy * 100).toFixed(0)} % busy${logSyncText(o.log_syncs)}`,
      );
      for (const sample of o.error_samples) console.log(`${''.padEnd(9)}  error: ${sample}`);
    }
    const [small, large] = Object.values(r.chain);
    if (!small || !large) continue;
    console.log(
      `${r.engine.padEnd(9)}mint p50 by chain length: ${Object.entries(r.chain)
        .map(([k, c]) => `${k}: ${c.mint_p50_ms.toFixed(2)} ms`)
        .join(', ')}; ratio ${(large.mint_p50_ms / small.mint_p50_ms).toFixed(2)}`,
    );
  }
}

const results: EngineResult[] = skip.has('sqlite') ? [] : [await benchEngine('sqlite')];
if (pgUrl) results.push(await benchEngine('postgres'));
printTable(results);
await writeFile(
  jsonOut,
  `${JSON.stringify({ at: new Date().toISOString(), seconds, server: serverMain, results }, null, 2)}\n`,
);
console.log(`\nJSON: ${jsonOut}`);
