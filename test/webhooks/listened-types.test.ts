import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { engines } from '../helpers/postgres.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { approvedRun, mint, newProject } from '../helpers/runs.js';
import type { Received, Receiver } from '../helpers/webhook-receiver.js';
import { startWebhookTestBed, type WebhookTestBed } from '../helpers/webhook-server.js';

interface Event {
  type: string;
  data: { receipt_id?: string; type?: string };
}
const eventOf = (r: Received) => JSON.parse(r.body) as Event;

// A mint reads which event types the org's endpoints listen to and builds only those events
// (docs/webhooks.md): each type must still reach an endpoint that listens to it alone.
describe.each(engines)('a mint emits the events its endpoints listen to, on %s', (engine) => {
  let bed: WebhookTestBed;
  let receiver: Receiver;
  let api: Api;
  let owner: SignedIn;
  let projectId: string;

  beforeAll(async () => {
    bed = await startWebhookTestBed({ WEBHOOK_RETRY_SECONDS: '0.1' }, engine);
    receiver = bed.receiver;
    ({ api } = await apiClient(bed.server.url));
    owner = await signIn(api, 'owner@example.com');
    projectId = await newProject(api, owner.token);
  });
  afterAll(() => bed.close());

  let current: string | null = null;
  /** Deletes the endpoint made last, then makes one that listens to `type` alone. */
  async function onlyEndpointFor(type: string): Promise<void> {
    if (current !== null) {
      const gone = await api('DELETE', `/org/webhooks/${current}`, { token: owner.token });
      expect(gone.status).toBe(204);
    }
    const created = await api<{ id: string }>('POST', '/org/webhooks', {
      token: owner.token,
      body: { url: receiver.url, events: [type] },
    });
    expect(created.status, created.text).toBe(201);
    current = created.body.id;
  }

  it('delivers receipt.minted to an endpoint that listens to nothing else', async () => {
    await onlyEndpointFor('receipt.minted');
    const { receipt_id } = await mint(
      api,
      owner.token,
      await approvedRun(api, owner.token, projectId),
    );
    const got = await receiver.until(
      (rs) => rs.some((r) => eventOf(r).data.receipt_id === receipt_id),
      'the receipt.minted event',
    );
    const mine = got.filter((r) => eventOf(r).data.receipt_id === receipt_id);
    expect(mine.map((r) => eventOf(r).type)).toEqual(['receipt.minted']);
  });

  it('delivers the share link audit of a mint to an endpoint that listens to audit.recorded alone', async () => {
    await onlyEndpointFor('audit.recorded');
    const before = receiver.received.length;
    await mint(api, owner.token, await approvedRun(api, owner.token, projectId));
    const got = await receiver.until(
      (rs) => rs.slice(before).some((r) => eventOf(r).data.type === 'share_link.created'),
      'the audit.recorded event of the share link',
    );
    const types = got.slice(before).map((r) => eventOf(r).type);
    expect(types).toContain('audit.recorded');
    expect(types).not.toContain('receipt.minted');
  });
});
