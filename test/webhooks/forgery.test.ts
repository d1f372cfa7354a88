import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { followRealTime, startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/** Only 127.0.0.1 is allowed; a second receiver on 127.0.0.2 stands for an internal service. */
describe('webhook request forgery', () => {
  let server: TestServer;
  let api: Api;
  let owner: SignedIn;
  let allowed: Receiver;
  let internal: Receiver;
  let stopClock: () => void;

  beforeAll(async () => {
    allowed = await startReceiver('127.0.0.1');
    internal = await startReceiver('127.0.0.2');
    server = await startTestServer({
      WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_RETRY_SECONDS: '0.05',
    });
    stopClock = followRealTime(server.clock);
    ({ api } = await apiClient(server.url));
    owner = await signIn(api, 'owner@example.com');
  });
  afterAll(async () => {
    stopClock();
    await server.close();
    await allowed.close();
    await internal.close();
  });

  const create = (url: string) =>
    api<{ detail: string }>('POST', '/org/webhooks', {
      token: owner.token,
      body: { url, events: ['webhook.test'] },
    });

  it.each([
    ['loopback outside the allow list', 'http://127.0.0.2:9/hook'],
    ['IPv6 loopback', 'http://[::1]:9/hook'],
    ['RFC 1918', 'http://10.0.0.1/hook'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data'],
    ['IPv6 unique local', 'http://[fd00::1]/hook'],
    ['IPv6 link-local', 'http://[fe80::1]/hook'],
    ['unspecified', 'http://0.0.0.0/hook'],
    ['an IPv4-mapped loopback', 'http://[::ffff:127.0.0.2]/hook'],
    ['a name resolving to loopback', 'http://localhost.:9/hook'],
    ['a file URL', 'file:///etc/passwd'],
    ['a gopher URL', 'gopher://127.0.0.1:70/'],
    ['credentials in the URL', 'http://user:pw@127.0.0.1/hook'],
  ])('refuses %s with 400 and creates nothing', async (_what, url) => {
    const refused = await create(url);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.detail).toBeTruthy();
    const listed = await api<{ webhooks: unknown[] }>('GET', '/org/webhooks', {
      token: owner.token,
    });
    expect(listed.body.webhooks).toHaveLength(0);
  });

  it('does not follow a redirect to a refused address: the attempt fails and nothing reaches it', async () => {
    allowed.answer(() => ({ status: 302, headers: { location: internal.url } }));
    const created = await create(allowed.url);
    expect(created.status).toBe(201);
    const { id } = created.body as unknown as { id: string };
    await api('POST', `/org/webhooks/${id}/test`, { token: owner.token });
    await allowed.until((rs) => rs.length >= 2, 'the attempt and its retry');
    let last: { state: string; last_status: number } | undefined;
    for (let i = 0; i < 500 && last?.state !== 'failed'; i++) {
      const log = await api<{ deliveries: { state: string; last_status: number }[] }>(
        'GET',
        `/org/webhooks/${id}/deliveries`,
        { token: owner.token },
      );
      last = log.body.deliveries[0];
      if (last?.state !== 'failed') await new Promise((r) => setTimeout(r, 20));
    }
    expect(last).toMatchObject({ state: 'failed', last_status: 302 });
    expect(internal.received).toHaveLength(0);
  });
});
