import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { engines } from '../helpers/postgres.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

interface Delivery {
  event_id: string;
  state: string;
  attempts: number;
  last_error: string | null;
}
interface Endpoint {
  id: string;
  enabled: boolean;
  disabled_reason: string | null;
}

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/**
 * Five days of failures disable an endpoint (docs/webhooks.md, "Retries"), on the server's manual
 * clock: the worker polls in real time, but what falls due and how long an endpoint has failed are
 * the clock's, so days pass without waiting for them.
 */
describe.each(engines)('five days of failures on %s', (engine) => {
  let server: TestServer;
  let api: Api;
  let owner: SignedIn;
  let receiver: Receiver;
  let endpoint: Endpoint;

  const get = <T>(path: string) => api<T>('GET', path, { token: owner.token });
  /** Waits until the delivery has had `attempts` attempts recorded. */
  const attempted = async (eventId: string, attempts: number) => {
    for (let i = 0; i < 1500; i++) {
      const log = await get<{ deliveries: Delivery[] }>(`/org/webhooks/${endpoint.id}/deliveries`);
      const d = log.body.deliveries.find((x) => x.event_id === eventId);
      if (d !== undefined && d.attempts >= attempts) return d;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`delivery ${eventId} never reached ${attempts} attempts`);
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    receiver.answer(() => ({ status: 500 }));
    server = await startTestServer(
      {
        WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32',
        WEBHOOK_POLL_MS: '20',
        // Each retry an hour after a failure: every attempt waits for the clock the test moves.
        WEBHOOK_RETRY_SECONDS: '3600,3600,3600,3600,3600',
      },
      { engine },
    );
    ({ api } = await apiClient(server.url));
    owner = await signIn(api, 'owner@example.com');
    const created = await api<Endpoint>('POST', '/org/webhooks', {
      token: owner.token,
      body: { url: receiver.url, events: ['webhook.test'] },
    });
    expect(created.status, created.text).toBe(201);
    endpoint = created.body;
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it('keeps a failing endpoint for four days, disables it after five with an audit receipt', async () => {
    const sent = await api<{ event_id: string }>('POST', `/org/webhooks/${endpoint.id}/test`, {
      token: owner.token,
    });
    expect(sent.status).toBe(202);
    const id = sent.body.event_id;
    expect(await attempted(id, 1)).toMatchObject({ state: 'pending' });

    server.clock.advance(4 * DAY);
    expect(await attempted(id, 2)).toMatchObject({ state: 'pending' });
    const still = await get<Endpoint>(`/org/webhooks/${endpoint.id}`);
    expect(still.body).toMatchObject({ enabled: true, disabled_reason: null });

    server.clock.advance(DAY + HOUR);
    const last = await attempted(id, 3);
    expect(last.state).toBe('failed');
    expect(receiver.received.filter((r) => r.id === id)).toHaveLength(3);
    const got = await get<Endpoint>(`/org/webhooks/${endpoint.id}`);
    expect(got.body).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    const audit = await get<{ entries: { payload: { event: object } }[] }>(
      '/org/audit?type=webhook.disabled&limit=200',
    );
    expect(audit.body.entries.map((e) => e.payload.event)).toEqual([
      { type: 'webhook.disabled', webhook_id: endpoint.id, url: receiver.url, reason: 'failing' },
    ]);
  });
});
