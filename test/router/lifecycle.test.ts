import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, startServer } from '@runledger/server';
import { verifyRouterReceiptFiles } from '@runledger/verify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/openapi.js';
import { newMember, receipts } from '../helpers/router.js';
import { ManualClock } from '../helpers/server.js';

describe('both listeners in one process', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'runledger-lifecycle-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  const config = () =>
    loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      ROUTER_PORT: '0',
      ROUTER_HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
    });

  it('serves the main API and the router API on separate ports over one storage', async () => {
    const server = await startServer(config(), { clock: new ManualClock() });
    try {
      expect(server.routerUrl).not.toBe(server.url);
      const main = await fetch(`${server.url}/health`);
      expect(await main.json()).toEqual({ ok: true });
      const router = await fetch(`${server.routerUrl}/health`);
      expect(await router.json()).toEqual({ ok: true, version: '0.1' });
      expect((await fetch(`${server.url}/members/x`)).status).toBe(404);
      expect((await fetch(`${server.routerUrl}/auth/me`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('closes both listeners, the sweeper and the receipt sink, so a restart continues the same chain', async () => {
    const clock = new ManualClock();
    const first = await startServer(config(), { clock });
    await newMember((await apiClient(first.routerUrl)).api, true, 'a@example.com');
    await first.close();
    await expect(fetch(`${first.url}/health`)).rejects.toThrow();
    await expect(fetch(`${first.routerUrl}/health`)).rejects.toThrow();
    await expect(first.sweepLeases()).rejects.toThrow(/stopped/);

    // A second writer would be refused while the first sink held its lock.
    const second = await startServer(config(), { clock });
    try {
      await newMember((await apiClient(second.routerUrl)).api, true, 'b@example.com');
    } finally {
      await second.close();
    }
    const lines = await receipts(dataDir);
    expect(lines.map((l) => [l.type, l.seq])).toEqual([
      ['membership', 1],
      ['membership', 2],
    ]);
    expect(await verifyRouterReceiptFiles(join(dataDir, 'receipts'))).toMatchObject({ ok: true });
  });

  it('releases storage and the receipt sink when the router port is taken, so a retry can start', async () => {
    const other = await mkdtemp(join(tmpdir(), 'runledger-lifecycle-'));
    const holder = await startServer(
      loadConfig({
        DATA_DIR: other,
        PORT: '0',
        HOST: '127.0.0.1',
        ROUTER_PORT: '0',
        ROUTER_HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
      }),
    );
    try {
      const taken = new URL(holder.routerUrl).port;
      await expect(
        startServer({ ...config(), routerPort: Number(taken) }, { clock: new ManualClock() }),
      ).rejects.toThrow(/EADDRINUSE/);
      const retry = await startServer(config(), { clock: new ManualClock() });
      await retry.close();
    } finally {
      await holder.close();
      await rm(other, { recursive: true, force: true });
    }
  });
});
