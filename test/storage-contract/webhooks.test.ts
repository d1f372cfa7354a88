import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '@runledger/adapters';
import type { Storage, WebhookEndpointRecord } from '@runledger/core/ports';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openFreshPostgres, postgresSkipped } from '../helpers/postgres.js';

let dir: string;
let n = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'runledger-storage-webhooks-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const T0 = '2030-01-01T12:00:00.000Z';
const later = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();

function endpoint(id: string, events: string[], enabled = true): WebhookEndpointRecord {
  return {
    id,
    org_id: 'org_a',
    url: 'https://hooks.example/x',
    description: null,
    events,
    secret_sealed: 'v1.sealed',
    previous_secret_sealed: null,
    previous_secret_until: null,
    enabled,
    disabled_reason: enabled ? null : 'owner',
    failing_since: null,
    created_at: T0,
    updated_at: T0,
  };
}
const event = (type: string) => ({
  org_id: 'org_a',
  type,
  payload_text: JSON.stringify({ type, timestamp: T0, data: {} }),
  created_at: T0,
});

const engines: [string, () => Promise<Storage>][] = [
  ['sqlite', () => openSqliteStorage({ file: join(dir, `db-${n++}.sqlite`) })],
  ...(postgresSkipped ? [] : [['postgres', openFreshPostgres] as [string, () => Promise<Storage>]]),
];

describe.each(engines)('webhook storage on %s', (_name, open) => {
  let storage: Storage;
  beforeEach(async () => {
    storage = await open();
    await storage.write(async (tx) => {
      await tx.orgs.insert({ id: 'org_a', name: 'a', created_at: T0 });
      await tx.webhookEndpoints.insert(endpoint('whk_1', ['run.created', 'audit.recorded']));
      await tx.webhookEndpoints.insert(endpoint('whk_2', ['run.created']));
      await tx.webhookEndpoints.insert(endpoint('whk_off', ['run.created'], false));
    });
  });
  afterEach(async () => {
    await storage.close();
  });

  it('writes an event with one delivery per enabled subscribed endpoint, and none nobody listens to', async () => {
    await storage.write((tx) =>
      tx.webhookOutbox.emit(
        [event('run.created'), event('audit.recorded'), event('run.decided')],
        T0,
      ),
    );
    const claimed = await storage.write((tx) => tx.webhookOutbox.claim('w', T0, later(60), 100));
    const pairs = claimed.map((c) => `${c.endpoint.id}:${JSON.parse(c.payload_text).type}`).sort();
    expect(pairs).toEqual(['whk_1:audit.recorded', 'whk_1:run.created', 'whk_2:run.created']);
    expect(await storage.read((tx) => tx.webhookOutbox.backlog())).toEqual({
      pending: 3,
      oldest_created_at: T0,
    });
  });

  it('lists the event types enabled endpoints of the organization listen to, and no others', async () => {
    const listened = () =>
      storage.read(async (tx) => ({
        a: [...(await tx.webhookOutbox.listenedTypes('org_a'))].sort(),
        b: [...(await tx.webhookOutbox.listenedTypes('org_b'))],
      }));
    expect(await listened()).toEqual({ a: ['audit.recorded', 'run.created'], b: [] });
    await storage.write(async (tx) => {
      await tx.orgs.insert({ id: 'org_b', name: 'b', created_at: T0 });
      await tx.webhookEndpoints.insert({
        ...endpoint('whk_b', ['receipt.minted']),
        org_id: 'org_b',
      });
      await tx.webhookEndpoints.update({ ...endpoint('whk_1', ['run.created']), enabled: false });
    });
    expect(await listened()).toEqual({ a: ['run.created'], b: ['receipt.minted'] });
    await storage.write((tx) => tx.webhookEndpoints.delete('org_a', 'whk_2'));
    expect(await listened()).toEqual({ a: [], b: ['receipt.minted'] });
  });

  it('emits nothing when the change rolls back', async () => {
    await expect(
      storage.write(async (tx) => {
        await tx.webhookOutbox.emit([event('run.created')], T0);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await storage.read((tx) => tx.webhookOutbox.backlog())).pending).toBe(0);
  });

  it('leases a delivery to one claimer until the lease expires, then to another', async () => {
    await storage.write((tx) => tx.webhookOutbox.emit([event('audit.recorded')], T0));
    const first = await storage.write((tx) => tx.webhookOutbox.claim('a', T0, later(60), 10));
    const meanwhile = await storage.write((tx) =>
      tx.webhookOutbox.claim('b', later(30), later(90), 10),
    );
    const after = await storage.write((tx) =>
      tx.webhookOutbox.claim('c', later(61), later(120), 10),
    );
    expect([first.length, meanwhile.length, after.length]).toEqual([1, 0, 1]);
    const { event_id, endpoint_id } = first[0]!.delivery;
    const settle = (owner: string) =>
      storage.write((tx) =>
        tx.webhookOutbox.settle(event_id, endpoint_id, owner, {
          state: 'delivered',
          attempts: 1,
          next_attempt_at: null,
          last_status: 200,
          last_latency_ms: 3,
          last_error: null,
          updated_at: later(62),
        }),
      );
    expect(await settle('a')).toBe(false);
    expect(await settle('c')).toBe(true);
  });

  it('gives concurrent claimers different deliveries', async () => {
    await storage.write((tx) =>
      tx.webhookOutbox.emit(
        Array.from({ length: 40 }, () => event('audit.recorded')),
        T0,
      ),
    );
    const claims = await Promise.all(
      ['a', 'b', 'c', 'd'].map((o) =>
        storage.write((tx) => tx.webhookOutbox.claim(o, T0, later(60), 10)),
      ),
    );
    const ids = claims.flat().map((c) => c.delivery.event_id);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
  });
});
