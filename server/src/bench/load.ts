import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface Reply {
  status: number;
  body: string;
}

/** One keep-alive HTTP client shared by every simulated client of the load generator. */
/**
 * A keep-alive client of at most `sockets` connections. With `idleMs`, a connection left idle that
 * long is closed by the client: below the server's keep-alive timeout (node's 5 s), so a request is
 * never sent on a connection the server is closing at that moment (an ECONNRESET of the client's
 * making, seen when a burst reaches for connections idle since an earlier phase).
 */
export function httpClient(base: string, sockets: number, idleMs?: number) {
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: sockets,
    ...(idleMs === undefined ? {} : { timeout: idleMs }),
  });
  const url = new URL(base);
  return {
    request(
      method: string,
      path: string,
      headers: Record<string, string> = {},
      body?: string,
    ): Promise<Reply> {
      return new Promise((resolve, reject) => {
        const req = http.request(
          {
            agent,
            host: url.hostname,
            port: url.port,
            method,
            path,
            headers:
              body === undefined ? headers : { 'content-type': 'application/json', ...headers },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                body: Buffer.concat(chunks).toString('utf8'),
              }),
            );
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

export type HttpClient = ReturnType<typeof httpClient>;

export interface Figures {
  /** Completed operations per second. */
  rate: number;
  p50_ms: number;
  p99_ms: number;
  count: number;
  errors: number;
  /** The first few failures as their messages (status and body start), so an error can be told apart. */
  error_samples: string[];
  /**
   * CPU microseconds per completed operation, by process (`client`: this load generator; the others
   * as the phase's `cpuReader` names them), over the timed window; null where it cannot be read.
   * It shows which process the cores went to; like a rate, it moves when the machine is busy.
   */
  cpu_us_per_op: Record<string, number | null>;
}

/** CPU seconds used so far by the processes a phase measures, by name (the server, the database). */
export type CpuReader = () => Promise<Record<string, number | null>>;

/** The reader that `drive` calls at the start and end of its timed window (set per phase with `run`). */
export const cpuReader = new AsyncLocalStorage<CpuReader>();

/** CPU seconds used so far: this process's (`client`) and those the phase's `cpuReader` names. */
export async function cpuNow(): Promise<Record<string, number | null>> {
  const own = process.cpuUsage();
  const others = (await cpuReader.getStore()?.()) ?? {};
  return { client: (own.user + own.system) / 1e6, ...others };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Each process's CPU microseconds per operation between two `cpuNow` readings; null where unread. */
export function cpuMicrosPerOp(
  before: Record<string, number | null>,
  after: Record<string, number | null>,
  ops: number,
): Record<string, number | null> {
  const perOp: Record<string, number | null> = {};
  for (const [name, start] of Object.entries(before)) {
    const end = after[name];
    perOp[name] =
      start === null || end === null || end === undefined || ops === 0
        ? null
        : ((end - start) * 1e6) / ops;
  }
  return perOp;
}

/**
 * Runs `clients` loops of `op` for `seconds` (or until an op returns 'done'), and returns the rate,
 * p50 and p99 of the operations that succeeded. An op that throws counts as an error.
 */
export async function drive(
  clients: number,
  seconds: number,
  op: (client: number) => Promise<'ok' | 'done'>,
): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  const errorSamples: string[] = [];
  const cpuBefore = await cpuNow();
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        let outcome: 'ok' | 'done';
        try {
          outcome = await op(client);
        } catch (error) {
          errors += 1;
          if (errorSamples.length < 5) errorSamples.push(String(error).slice(0, 300));
          continue;
        }
        if (outcome === 'done') return;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = await cpuNow();
  const cpuPerOp = cpuMicrosPerOp(cpuBefore, cpuAfter, latencies.length);
  latencies.sort((a, b) => a - b);
  return {
    rate: latencies.length / elapsed,
    p50_ms: percentile(latencies, 50),
    p99_ms: percentile(latencies, 99),
    count: latencies.length,
    errors,
    error_samples: errorSamples,
    cpu_us_per_op: cpuPerOp,
  };
}

/** Throws unless the reply has the expected status, so drive() counts it as an error. */
export function expectStatus(reply: Reply, ...want: number[]): Reply {
  if (!want.includes(reply.status))
    throw new Error(`HTTP ${reply.status}: ${reply.body.slice(0, 200)}`);
  return reply;
}
