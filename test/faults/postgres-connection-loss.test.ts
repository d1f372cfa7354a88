import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/auth.js';
import {
  approvedRuns,
  expectLedgerWhole,
  mintOnce,
  mintStorm,
  readiness,
  waitFor,
  type StormResult,
} from '../helpers/fault-storm.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { startOwnPostgres, type OwnPostgres } from '../helpers/own-postgres.js';
import { postgresSkipped } from '../helpers/postgres.js';
import { spawnServer, type ServerProcess } from '../helpers/processes.js';
import { newProject } from '../helpers/runs.js';

/**
 * The real server process on a PostgreSQL instance of this file's own, during mint storms: its
 * backends terminated (pg_terminate_backend), the database stopped and started, and restarted with
 * pg_ctl. No answer but 200, 201 and 503; the process stays up; the pool recovers by itself; every
 * 201's receipt is in a ledger that verifies, with exactly one receipt per run.
 */
const RUNS = 120;
const APP = 'runledger_fault_test';

describe.skipIf(postgresSkipped)('PostgreSQL connections lost during a mint storm', () => {
  let database: OwnPostgres;
  let admin: pg.Client;
  let server: ServerProcess;
  let api: Api;

  beforeAll(async () => {
    database = await startOwnPostgres();
    server = await spawnServer({
      DATABASE_URL: `${database.url}?application_name=${APP}`,
      AUTH_REQUEST_LIMIT_PER_EMAIL: '1000',
    });
    ({ api } = await apiClient(server.url));
  }, 60_000);
  afterAll(async () => {
    await admin?.end().catch(() => undefined);
    await server?.close();
    await database?.destroy();
  });

  /** A new organization with `RUNS` approved runs. */
  async function organization(email: string) {
    const { token } = await signIn(api, email);
    const projectId = await newProject(api, token);
    return { token, runIds: await approvedRuns(api, token, projectId, RUNS) };
  }

  async function terminateServerBackends(): Promise<number> {
    admin ??= new pg.Client({ connectionString: database.url });
    if (admin.listenerCount('error') === 0) {
      admin.on('error', () => undefined);
      await admin.connect();
    }
    const ended = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [APP],
    );
    return ended.rowCount ?? 0;
  }

  function report(what: string, storm: StormResult): void {
    console.log(
      `${what}: answers ${JSON.stringify(storm.tally)}, 200 after a 503: ${storm.foundAfter503}`,
    );
  }

  it('pg_terminate_backend on every server connection, three times: 503 at worst, and the pool recovers', async () => {
    const { token, runIds } = await organization('terminate@example.com');
    let terminated = 0;
    let rounds = 0;
    const faults: Promise<void>[] = [];
    const storm = await mintStorm(server.url, token, runIds, {
      onAnswer: (_answer, answered) => {
        // A round after every 25 answers, while mints are in flight.
        if (rounds < 3 && answered >= 25 * (rounds + 1)) {
          rounds += 1;
          faults.push(terminateServerBackends().then((n) => void (terminated += n)));
        }
      },
    });
    await Promise.all(faults);
    report('pg_terminate_backend x3', storm);
    expect(rounds).toBe(3);
    expect(terminated).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
    expect((await readiness(server.url)).status).toBe(200);
    await expectLedgerWhole(api, token, storm, RUNS);
  }, 60_000);

  it('the database stopped and started under load: 503 with Retry-After meanwhile, /ready names storage, minting resumes', async () => {
    const { token, runIds } = await organization('stop@example.com');
    // Kept out of the storm: minted while the database is down, whatever the storm has left.
    const spare = runIds.pop()!;
    let stopping: Promise<void> | null = null;
    const storm = mintStorm(server.url, token, runIds, {
      onAnswer: (_answer, answered) => {
        if (stopping === null && answered >= 30) stopping = database.stop();
      },
    });
    await waitFor('the storm to stop the database', () => stopping !== null);
    await stopping;
    const refused = await mintOnce(server.url, token, spare);
    expect(refused.status).toBe(503);
    expect(refused.detail).toMatch(/database is unreachable/);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    await waitFor('/ready to name storage', async () => {
      const ready = await readiness(server.url);
      return ready.status === 503 && ready.detail.includes('storage');
    });
    await database.start();
    const result = await storm;
    report('stop, then start', result);
    await waitFor('/ready to answer 200', async () => (await readiness(server.url)).status === 200);
    const minted = await mintOnce(server.url, token, spare);
    expect(minted.status).toBe(201);
    result.acknowledged.add(minted.receiptId!);
    result.receiptOf.set(spare, minted.receiptId!);
    expect(server.child.exitCode).toBeNull();
    await expectLedgerWhole(api, token, result, RUNS);
  }, 60_000);

  it('pg_ctl restart during a mint storm: 503 at worst, then every run minted once', async () => {
    const { token, runIds } = await organization('restart@example.com');
    let restarting: Promise<void> | null = null;
    const storm = await mintStorm(server.url, token, runIds, {
      onAnswer: (_answer, answered) => {
        if (restarting === null && answered >= 30) restarting = database.restart();
      },
    });
    await restarting;
    report('pg_ctl restart', storm);
    expect(restarting).not.toBeNull();
    expect(server.child.exitCode).toBeNull();
    await waitFor('/ready to answer 200', async () => (await readiness(server.url)).status === 200);
    await expectLedgerWhole(api, token, storm, RUNS);
  }, 60_000);
});
