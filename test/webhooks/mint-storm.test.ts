import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/auth.js';
import { engines } from '../helpers/postgres.js';
import { apiClient } from '../helpers/openapi.js';
import { approvedRun, newProject } from '../helpers/runs.js';
import type { TestServer } from '../helpers/server.js';
import { parallel } from '../helpers/webhook-load.js';
import { swHeaders, type Receiver } from '../helpers/webhook-receiver.js';
import { startWebhookTestBed, type WebhookTestBed } from '../helpers/webhook-server.js';

const MINTS = 30;

describe.each(engines)('a mint storm with a flapping receiver on %s', (engine) => {
  let server: TestServer;
  let receiver: Receiver;
  let bed: WebhookTestBed;

  beforeAll(async () => {
    bed = await startWebhookTestBed(
      { WEBHOOK_RETRY_SECONDS: '0.05,0.05,0.05,0.05,0.05,0.05' },
      engine,
    );
    ({ server, receiver } = bed);
  });
  afterAll(() => bed.close());

  it('delivers the receipt.minted event of every acknowledged mint', async () => {
    const { api } = await apiClient(server.url);
    const owner = await signIn(api, 'owner@example.com');
    const created = await api<{ id: string; secret: string }>('POST', '/org/webhooks', {
      token: owner.token,
      body: { url: receiver.url, events: ['receipt.minted'] },
    });
    expect(created.status).toBe(201);
    // Each delivery's first two attempts fail (500, then 429 with Retry-After: 0); the third succeeds.
    const tries = new Map<string, number>();
    receiver.answer((r) => {
      const n = (tries.get(r.id) ?? 0) + 1;
      tries.set(r.id, n);
      if (n >= 3) return { status: 200 };
      return n === 1 ? { status: 500 } : { status: 429, headers: { 'retry-after': '0' } };
    });
    const projectId = await newProject(api, owner.token);
    const runs: string[] = [];
    await parallel(
      MINTS,
      4,
      async () => void runs.push(await approvedRun(api, owner.token, projectId)),
    );
    const acknowledged: string[] = [];
    await parallel(MINTS, 10, async (i) => {
      const minted = await api<{ receipt_id: string }>('POST', `/runs/${runs[i]}/receipt`, {
        token: owner.token,
      });
      if (minted.status === 201) acknowledged.push(minted.body.receipt_id);
    });
    expect(acknowledged).toHaveLength(MINTS);
    const verifier = new Webhook(created.body.secret);
    const delivered = (rs: typeof receiver.received) =>
      new Set(
        rs
          .filter((r) => (tries.get(r.id) ?? 0) >= 3)
          .map(
            (r) =>
              (verifier.verify(r.body, swHeaders(r)) as { data: { receipt_id: string } }).data
                .receipt_id,
          ),
      );
    await receiver.until(
      (rs) => acknowledged.every((id) => delivered(rs).has(id)),
      'every minted receipt',
    );
  }, 120_000);
});
