import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/auth.js';
import { apiClient } from '../helpers/openapi.js';
import { freshSchemaUrl, postgresSkipped } from '../helpers/postgres.js';
import { spawnServer, type ServerProcess } from '../helpers/processes.js';
import { parallel } from '../helpers/webhook-load.js';
import { startReceiver, swHeaders, type Receiver } from '../helpers/webhook-receiver.js';

/** Server processes sharing one PostgreSQL database: what they share must be the same. */
const shared = (databaseUrl: string, extra: Record<string, string> = {}) => ({
  DATABASE_URL: databaseUrl,
  JWT_SECRET: 'a-shared-jwt-secret-of-at-least-32-characters',
  WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32',
  WEBHOOK_POLL_MS: '20',
  WEBHOOK_RETRY_SECONDS: '0.2,0.2,0.2',
  AUTH_REQUEST_LIMIT_PER_EMAIL: '1000',
  ...extra,
});

async function deliveredCount(metricsUrl: string | null): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('runledger_webhook_deliveries_total{outcome="delivered"}'));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

describe.skipIf(postgresSkipped)('webhook delivery across server processes on PostgreSQL', () => {
  let receiver: Receiver;
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
    receiver.received.length = 0;
    receiver.answer(() => ({ status: 200 }));
  }, 60_000);
  afterAll(async () => {
    await receiver.close();
  });

  async function endpointOn(server: ServerProcess) {
    const { api } = await apiClient(server.url);
    const owner = await signIn(api, 'owner@example.com');
    const created = await api<{ id: string; secret: string }>('POST', '/org/webhooks', {
      token: owner.token,
      body: { url: receiver.url, events: ['webhook.test'] },
    });
    expect(created.status, created.text).toBe(201);
    const send = async () => {
      const sent = await api<{ event_id: string }>(
        'POST',
        `/org/webhooks/${created.body.id}/test`,
        {
          token: owner.token,
        },
      );
      expect(sent.status, sent.text).toBe(202);
      return sent.body.event_id;
    };
    return { ...created.body, send };
  }

  it('two processes deliver 1,000 events, each once, sharing the work', async () => {
    const url = await freshSchemaUrl();
    servers.push(await spawnServer(shared(url)));
    servers.push(await spawnServer(shared(url)));
    const endpoint = await endpointOn(servers[0]!);
    const ids: string[] = [];
    await parallel(1000, 8, async () => void ids.push(await endpoint.send()));
    await receiver.until((rs) => new Set(rs.map((r) => r.id)).size >= 1000, '1,000 events');
    const seen = receiver.received.map((r) => r.id);
    expect(seen.length).toBe(1000);
    expect(new Set(seen)).toEqual(new Set(ids));
    const verifier = new Webhook(endpoint.secret);
    for (const r of receiver.received)
      expect(() => verifier.verify(r.body, swHeaders(r))).not.toThrow();
    const [a, b] = await Promise.all(servers.map((s) => deliveredCount(s.metricsUrl)));
    expect(a! + b!).toBe(1000);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
  }, 240_000);

  it('delivers after a kill -9 between the commit and the delivery, once another process starts', async () => {
    const url = await freshSchemaUrl();
    const first = await spawnServer(shared(url, { WEBHOOK_WORKER: 'off' }));
    servers.push(first);
    const endpoint = await endpointOn(first);
    const committed = await Promise.all([endpoint.send(), endpoint.send(), endpoint.send()]);
    await new Promise<void>((resolve) => {
      first.child.once('exit', () => resolve());
      first.child.kill('SIGKILL');
    });
    expect(receiver.received).toHaveLength(0);
    servers.push(await spawnServer(shared(url)));
    await receiver.until(
      (rs) => committed.every((id) => rs.some((r) => r.id === id)),
      'the committed events',
    );
  }, 120_000);

  it('a process killed mid-delivery leaves the delivery to another, with the same webhook-id', async () => {
    const url = await freshSchemaUrl();
    const env = shared(url, { WEBHOOK_LEASE_SECONDS: '1', WEBHOOK_TIMEOUT_MS: '2000' });
    const first = await spawnServer(env);
    servers.push(first);
    receiver.answer((_r, n) => (n === 1 ? 'hang' : { status: 200 }));
    const endpoint = await endpointOn(first);
    const id = await endpoint.send();
    await receiver.until((rs) => rs.length === 1, 'the first attempt');
    await new Promise<void>((resolve) => {
      first.child.once('exit', () => resolve());
      first.child.kill('SIGKILL');
    });
    servers.push(await spawnServer(env));
    await receiver.until((rs) => rs.length >= 2, 'the delivery again');
    expect(receiver.received.map((r) => r.id).slice(0, 2)).toEqual([id, id]);
  }, 120_000);
});
