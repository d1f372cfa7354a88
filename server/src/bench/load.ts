import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface Reply {
  status: number;
  body: string;
}

/** One keep-alive HTTP client shared by every simulated client of the load generator. */
export function httpClient(base: string, sockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
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
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
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
  latencies.sort((a, b) => a - b);
  return {
    rate: latencies.length / elapsed,
    p50_ms: percentile(latencies, 50),
    p99_ms: percentile(latencies, 99),
    count: latencies.length,
    errors,
    error_samples: errorSamples,
  };
}

/** Throws unless the reply has the expected status, so drive() counts it as an error. */
export function expectStatus(reply: Reply, ...want: number[]): Reply {
  if (!want.includes(reply.status))
    throw new Error(`HTTP ${reply.status}: ${reply.body.slice(0, 200)}`);
  return reply;
}
