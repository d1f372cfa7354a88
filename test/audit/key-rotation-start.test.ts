import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openSqliteStorage } from '@runledger/adapters';
import { loadConfig, startServer } from '@runledger/server';
import { formatSkey } from '@runledger/verify/note';

let dataDir = '';
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Starts and stops a real server on `dataDir` with the signing key of `seed`. */
async function startAndStop(seed: number) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://runledger.test',
    ROUTER_PORT: '0',
    ROUTER_HOST: '127.0.0.1',
    METRICS_PORT: '0',
    SIGNING_KEY: formatSkey('runledger.test', new Uint8Array(32).fill(seed)),
  });
  const server = await startServer(config);
  await server.close();
  return config.checkpointSigner.keyId;
}

it('a server restarted with a new SIGNING_KEY writes signing_key.rotated into each org’s chain', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'runledger-rotate-'));
  await startAndStop(1);
  const file = join(dataDir, 'runledger.sqlite');
  const storage = await openSqliteStorage({ file });
  const org = { id: 'org_rotation', name: 'Rotation', created_at: '2026-01-01T00:00:00.000Z' };
  await storage.write((tx) => tx.orgs.insert(org));
  await storage.close();

  await startAndStop(1);
  const newKeyId = await startAndStop(2);

  const reopened = await openSqliteStorage({ file });
  const receipts = await reopened.read((tx) => tx.auditReceipts.list(org.id, -1, 10, null));
  await reopened.close();
  expect(receipts.map((r) => r.event_type)).toEqual(['signing_key.rotated']);
  const event = JSON.parse(receipts[0]!.payload_text).event;
  expect(event.key_id).toBe(newKeyId.toString(16).padStart(8, '0'));
  expect(event.previous_key_id).toMatch(/^[0-9a-f]{8}$/);
  expect(event.previous_key_id).not.toBe(event.key_id);
});
