import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookEvent, WebhookEventType } from '@runledger/core/schemas';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { engines } from '../helpers/postgres.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { AGENT_REPORT, approvedRun, mint, newProject } from '../helpers/runs.js';
import type { TestServer } from '../helpers/server.js';
import { grade, settledVerdict } from '../helpers/tribunal.js';
import { swHeaders, type Receiver, type Received } from '../helpers/webhook-receiver.js';
import { startWebhookTestBed, type WebhookTestBed } from '../helpers/webhook-server.js';

interface Created {
  id: string;
  secret: string;
  events: string[];
}

const ALL = WebhookEventType.options;
const typeOf = (r: Received) => (JSON.parse(r.body) as { type: string }).type;

describe.each(engines)('signed webhooks on %s', (engine) => {
  let server: TestServer;
  let api: Api;
  let owner: SignedIn;
  let receiver: Receiver;
  let endpoint: Created;
  let bed: WebhookTestBed;

  beforeAll(async () => {
    bed = await startWebhookTestBed({ WEBHOOK_RETRY_SECONDS: '0.1,0.1' }, engine);
    ({ server, receiver } = bed);
    ({ api } = await apiClient(server.url));
    owner = await signIn(api, 'owner@example.com');
    const created = await api<Created>('POST', '/org/webhooks', {
      token: owner.token,
      body: { url: receiver.url, events: ALL, description: 'all events' },
    });
    expect(created.status, created.text).toBe(201);
    endpoint = created.body;
  });
  afterAll(() => bed.close());

  it('answers the secret once, as whsec_, and never again', async () => {
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const got = await api('GET', `/org/webhooks/${endpoint.id}`, { token: owner.token });
    expect(got.status).toBe(200);
    expect(got.text).not.toContain(endpoint.secret.slice(6, 20));
    const listed = await api('GET', '/org/webhooks', { token: owner.token });
    expect(listed.text).not.toContain('secret"');
  });

  it('delivers every event type, each verified by standardwebhooks and matching its schema', async () => {
    const projectId = await newProject(api, owner.token);
    const runId = await approvedRun(api, owner.token, projectId);
    await mint(api, owner.token, runId);
    const incident = await api('POST', `/runs/${runId}/incidents`, {
      token: owner.token,
      body: { kind: 'rogue', note: 'went off script' },
    });
    expect(incident.status, incident.text).toBe(201);
    const verdictId = await grade(api, owner.token, {
      flight_sheet: 'agent-task-report',
      submission: AGENT_REPORT,
      evidence: [{ kind: 'log', label: 'log', content: 'step 1 ok\n' }],
    });
    await settledVerdict(api, owner.token, verdictId);
    const tested = await api('POST', `/org/webhooks/${endpoint.id}/test`, { token: owner.token });
    expect(tested.status).toBe(202);
    const got = await receiver.until(
      (rs) => ALL.every((t) => rs.some((r) => typeOf(r) === t)),
      'every event type',
    );
    const verifier = new Webhook(endpoint.secret);
    for (const r of got) {
      const event = WebhookEvent.parse(verifier.verify(r.body, swHeaders(r)));
      expect(r.id).toMatch(/^msg_/);
      expect(JSON.stringify(event)).not.toContain('whsec_');
    }
    const minted = got
      .map((r) => WebhookEvent.parse(JSON.parse(r.body)))
      .find((e) => e.type === 'receipt.minted');
    expect(minted?.data).toMatchObject({ run_id: runId, log_size: 1, org_seq: 0 });
  });

  it('signs with the old and the new secret for a day after a rotation', async () => {
    const rotated = await api<Created>('POST', `/org/webhooks/${endpoint.id}/rotate-secret`, {
      token: owner.token,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const before = receiver.received.length;
    const tested = await api<{ event_id: string }>('POST', `/org/webhooks/${endpoint.id}/test`, {
      token: owner.token,
    });
    const [r] = (
      await receiver.until((rs) => rs.some((x) => x.id === tested.body.event_id))
    ).filter((x) => x.id === tested.body.event_id);
    expect(receiver.received.length).toBeGreaterThan(before);
    expect(r!.signature.split(' ')).toHaveLength(2);
    expect(() => new Webhook(endpoint.secret).verify(r!.body, swHeaders(r!))).not.toThrow();
    expect(() => new Webhook(rotated.body.secret).verify(r!.body, swHeaders(r!))).not.toThrow();
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(r!.body, swHeaders(r!)),
    ).toThrow();
  });

  it('audits every change and reports deliveries, queue depth and age in /metrics', async () => {
    const audit = await api<{ entries: { event_type: string }[] }>('GET', '/org/audit?limit=200', {
      token: owner.token,
    });
    const types = audit.body.entries.map((e) => e.event_type);
    for (const t of ['webhook.created', 'webhook.secret_rotated', 'webhook.tested']) {
      expect(types).toContain(t);
    }
    const text = await (await fetch(`${server.metricsUrl}/metrics`)).text();
    const delivered = /runledger_webhook_deliveries_total\{outcome="delivered"\} (\d+)/.exec(text);
    expect(Number(delivered?.[1])).toBeGreaterThan(0);
    expect(text).toMatch(/^runledger_webhook_queue_depth \d+/m);
    expect(text).toMatch(/^runledger_webhook_oldest_pending_seconds \d/m);
  });
});
