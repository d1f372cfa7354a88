import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { engines } from '../helpers/postgres.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import type { TestServer } from '../helpers/server.js';
import { swHeaders, type Receiver } from '../helpers/webhook-receiver.js';
import { startWebhookTestBed, type WebhookTestBed } from '../helpers/webhook-server.js';

interface Delivery {
  event_id: string;
  state: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
}
interface Endpoint {
  id: string;
  secret: string;
  enabled: boolean;
  disabled_reason: string | null;
}

describe.each(engines)('webhook retries on %s', (engine) => {
  let server: TestServer;
  let api: Api;
  let owner: SignedIn;
  let receiver: Receiver;
  let endpoint: Endpoint;
  let bed: WebhookTestBed;

  const send = async () => {
    const sent = await api<{ event_id: string }>('POST', `/org/webhooks/${endpoint.id}/test`, {
      token: owner.token,
    });
    expect(sent.status).toBe(202);
    return sent.body.event_id;
  };
  const delivery = async (eventId: string) => {
    const log = await api<{ deliveries: Delivery[] }>(
      'GET',
      `/org/webhooks/${endpoint.id}/deliveries?limit=200`,
      { token: owner.token },
    );
    return log.body.deliveries.find((d) => d.event_id === eventId)!;
  };
  const settled = async (eventId: string, state: string) => {
    for (let i = 0; i < 1500; i++) {
      const d = await delivery(eventId);
      if (d.state === state) return d;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`delivery ${eventId} never became ${state}`);
  };
  const attemptsOf = (eventId: string) => receiver.received.filter((r) => r.id === eventId);

  beforeAll(async () => {
    bed = await startWebhookTestBed(
      { WEBHOOK_RETRY_SECONDS: '0.05,0.05,0.05', WEBHOOK_TIMEOUT_MS: '300' },
      engine,
    );
    ({ server, receiver } = bed);
    ({ api } = await apiClient(server.url));
    owner = await signIn(api, 'owner@example.com');
  });
  beforeEach(async () => {
    receiver.answer(() => ({ status: 200 }));
    const created = await api<Endpoint>('POST', '/org/webhooks', {
      token: owner.token,
      body: { url: receiver.url, events: ['webhook.test'] },
    });
    expect(created.status, created.text).toBe(201);
    endpoint = created.body;
  });
  afterAll(() => bed.close());

  it('retries a 500 with the same webhook-id until a 2xx, and the log counts the attempts', async () => {
    const before = receiver.received.length;
    receiver.answer((_r, n) => ({ status: n - before >= 3 ? 200 : 500 }));
    const id = await send();
    const d = await settled(id, 'delivered');
    expect(d).toMatchObject({ attempts: 3, last_status: 200 });
    expect(attemptsOf(id)).toHaveLength(3);
    for (const r of attemptsOf(id)) {
      expect(() => new Webhook(endpoint.secret).verify(r.body, swHeaders(r))).not.toThrow();
    }
  });

  it('gives up after the schedule is spent, marking the delivery failed', async () => {
    receiver.answer(() => ({ status: 503 }));
    const id = await send();
    const d = await settled(id, 'failed');
    expect(d).toMatchObject({ attempts: 4, last_status: 503 });
    expect(attemptsOf(id)).toHaveLength(4);
  });

  it('waits at least as long as Retry-After asks after a 429', async () => {
    const times: number[] = [];
    const before = receiver.received.length;
    receiver.answer((_r, n) => {
      times.push(Date.now());
      return n - before === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 };
    });
    const id = await send();
    await settled(id, 'delivered');
    expect(attemptsOf(id)).toHaveLength(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(900);
  });

  it('counts an answer that never comes as a timeout and retries it', async () => {
    const before = receiver.received.length;
    receiver.answer((_r, n) => (n - before === 1 ? 'hang' : { status: 204 }));
    const id = await send();
    const d = await settled(id, 'delivered');
    expect(d.attempts).toBe(2);
    expect(attemptsOf(id)).toHaveLength(2);
  });

  it('disables the endpoint on a 410, with an audit receipt, and sends nothing more', async () => {
    receiver.answer(() => ({ status: 410 }));
    const id = await send();
    const d = await settled(id, 'failed');
    expect(d.last_status).toBe(410);
    const got = await api<Endpoint>('GET', `/org/webhooks/${endpoint.id}`, { token: owner.token });
    expect(got.body).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    const audit = await api<{ entries: { event_type: string; payload: { event: object } }[] }>(
      'GET',
      '/org/audit?type=webhook.disabled&limit=200',
      { token: owner.token },
    );
    expect(audit.body.entries.map((e) => e.payload.event)).toContainEqual({
      type: 'webhook.disabled',
      webhook_id: endpoint.id,
      url: receiver.url,
      reason: 'gone',
    });
    const second = await send();
    await new Promise((r) => setTimeout(r, 200));
    expect(attemptsOf(second)).toHaveLength(0);
    expect((await delivery(second)).state).toBe('pending');
  });

  it('sends a delivery again on a manual retry, with the same webhook-id', async () => {
    receiver.answer(() => ({ status: 200 }));
    const id = await send();
    await settled(id, 'delivered');
    const retried = await api('POST', `/org/webhooks/${endpoint.id}/deliveries/${id}/retry`, {
      token: owner.token,
    });
    expect(retried.status).toBe(204);
    await receiver.until(() => attemptsOf(id).length === 2, 'the retried delivery');
    const missing = await api('POST', `/org/webhooks/${endpoint.id}/deliveries/msg_nope/retry`, {
      token: owner.token,
    });
    expect(missing.status).toBe(404);
  });
});
