import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { startCuttingProxy, type CuttingProxy } from '../helpers/cutting-proxy.js';
import { mintOnce } from '../helpers/fault-storm.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { freshSchemaUrl, postgresSkipped } from '../helpers/postgres.js';
import { spawnServer, type ServerProcess } from '../helpers/processes.js';
import { approvedRun, newProject } from '../helpers/runs.js';

/**
 * The server's connection to PostgreSQL cut at a chosen point of a mint's transaction, through a
 * proxy: before COMMIT went out, the transaction runs again on a new connection and the mint is
 * acknowledged; after PostgreSQL committed but before its answer arrived, the mint is NOT
 * acknowledged (503), and the same request sent again answers 200 with the receipt that was made,
 * never a second one.
 */
describe.skipIf(postgresSkipped)('a mint whose database connection is cut', () => {
  let proxy: CuttingProxy;
  let server: ServerProcess;
  let api: Api;
  let ada: SignedIn;
  let projectId: string;

  beforeAll(async () => {
    const url = new URL(await freshSchemaUrl());
    proxy = await startCuttingProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = proxy.address;
    server = await spawnServer({
      DATABASE_URL: url.toString(),
      // No background write transaction may take the cut meant for the mint.
      ROUTER_SWEEP_SECONDS: '3600',
      TRIBUNAL_POLL_SECONDS: '3600',
      WEBHOOK_WORKER: 'off',
    });
    ({ api } = await apiClient(server.url));
    ada = await signIn(api, 'ada@example.com');
    projectId = await newProject(api, ada.token);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
  });

  async function ledgerSize(): Promise<number> {
    const verified = await api<{ ok: boolean; receipts_checked: number }>('GET', '/ledger/verify', {
      token: ada.token,
    });
    expect(verified.body.ok).toBe(true);
    return verified.body.receipts_checked;
  }

  it('cut before COMMIT: run again on a new connection, acknowledged 201', async () => {
    const runId = await approvedRun(api, ada.token, projectId);
    const before = await ledgerSize();
    const cutsBefore = proxy.cuts;
    proxy.arm('before-commit');
    const minted = await mintOnce(server.url, ada.token, runId);
    expect(proxy.cuts).toBe(cutsBefore + 1);
    expect(minted.status).toBe(201);
    expect(await ledgerSize()).toBe(before + 1);
  });

  it('cut after PostgreSQL committed: 503, and the request sent again finds the one receipt', async () => {
    const runId = await approvedRun(api, ada.token, projectId);
    const before = await ledgerSize();
    const cutsBefore = proxy.cuts;
    proxy.arm('after-commit');
    const lost = await mintOnce(server.url, ada.token, runId);
    expect(proxy.cuts).toBe(cutsBefore + 1);
    expect(lost.status).toBe(503);
    expect(lost.detail).toMatch(/lost while the change was being saved/);
    expect(Number(lost.retryAfter)).toBeGreaterThan(0);
    const again = await mintOnce(server.url, ada.token, runId);
    expect(again.status).toBe(200);
    expect(again.receiptId).toMatch(/\S/);
    expect(await ledgerSize()).toBe(before + 1);
    expect(server.child.exitCode).toBeNull();
  });
});
