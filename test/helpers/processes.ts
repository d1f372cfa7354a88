import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const MAIN = resolve(import.meta.dirname, '../../server/dist/main.js');

export interface ServerProcess {
  url: string;
  routerUrl: string;
  /** GET /metrics (METRICS_PORT=0 unless `env` says otherwise). */
  metricsUrl: string | null;
  /** The process itself, for tests that send it signals. */
  child: ChildProcess;
  /** Every line it wrote on stdout so far. */
  stdout(): string[];
  close(): Promise<void>;
}

/**
 * `node server/dist/main.js` as its own process (its own DATA_DIR, free loopback ports) with `env`
 * on top, e.g. DATABASE_URL. Resolves once it logged its addresses and /health answers 200.
 */
export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'runledger-proc-'));
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env['PATH'] ?? '',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      ROUTER_PORT: '0',
      ROUTER_HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      PUBLIC_BASE_URL: 'http://runledger.test',
      METRICS_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const lines: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const close = async () => {
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const { url, routerUrl, metricsUrl } = await addresses(child, lines, () => stderr);
    const health = await fetch(`${url}/health`);
    if (health.status !== 200) throw new Error(`/health answered ${health.status}`);
    return { url, routerUrl, metricsUrl, child, stdout: () => [...lines], close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The first log line carrying url and router_url; every line is kept in `kept`. */
function addresses(child: ChildProcess, kept: string[], stderr: () => string) {
  return new Promise<{ url: string; routerUrl: string; metricsUrl: string | null }>(
    (resolvePromise, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        kept.push(line);
        try {
          const entry = JSON.parse(line) as {
            url?: string;
            router_url?: string;
            metrics_url?: string | null;
          };
          if (entry.url && entry.router_url) {
            resolvePromise({
              url: entry.url,
              routerUrl: entry.router_url,
              metricsUrl: entry.metrics_url ?? null,
            });
          }
        } catch {
          // Not a JSON log line.
        }
      });
      child.once('exit', (code) => reject(new Error(`server exited (${code}): ${stderr()}`)));
    },
  );
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  await exited;
}
