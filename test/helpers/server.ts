import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@runledger/core/testing';
import { loadConfig, startServer, type ServerConfig, type StartOptions } from '@runledger/server';
import { freshSchemaUrl, type Engine } from './postgres.js';

/** A clock the test moves by hand: link expiry, JWT expiry and rate-limit windows without sleeping. */
export { ManualClock };

export interface TestServer {
  /** The main API. */
  url: string;
  /** The router API v0.1 on its own listener; `apiClient(routerUrl)` validates against its /openapi.json. */
  routerUrl: string;
  /** GET /metrics on its own loopback listener (METRICS_PORT=0 unless the test sets it). */
  metricsUrl: string | null;
  /** One lease sweep now, as the interval would run it. */
  sweepLeases(): Promise<number>;
  clock: ManualClock;
  config: ServerConfig;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A real server (both listeners on free loopback ports) over a real SQLite file (or, with
 * `engine: 'postgres'`, a fresh PostgreSQL schema) and real receipt files in a fresh temp DATA_DIR. The sweeper interval is an hour so only `sweepLeases()` expires leases.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: Pick<StartOptions, 'logger'> & { engine?: Engine } = {},
): Promise<TestServer> {
  const { engine = 'sqlite', ...startOptions } = options;
  const databaseUrl = engine === 'postgres' ? await freshSchemaUrl() : null;
  const dataDir = await mkdtemp(join(tmpdir(), 'runledger-http-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://runledger.test',
    ROUTER_PORT: '0',
    ROUTER_HOST: '127.0.0.1',
    ROUTER_SWEEP_SECONDS: '3600',
    ...(databaseUrl === null ? {} : { DATABASE_URL: databaseUrl }),
    METRICS_PORT: '0',
    ...env,
  });
  const clock = new ManualClock();
  // Fenced expiry follows the manual clock the test moves, on PostgreSQL too.
  const server = await startServer(config, { clock, expiryClock: 'caller', ...startOptions }).catch(
    async (error: unknown) => {
      await rm(dataDir, { recursive: true, force: true });
      throw error;
    },
  );
  return {
    url: server.url,
    routerUrl: server.routerUrl,
    metricsUrl: server.metricsUrl,
    sweepLeases: () => server.sweepLeases(),
    clock,
    config,
    dataDir,
    close: async () => {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
