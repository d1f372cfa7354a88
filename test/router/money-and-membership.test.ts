import { verifyRouterReceiptFiles } from '@runledger/verify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  newMember,
  receiptFiles,
  receipts,
  startRouterWorld,
  type RouterWorld,
} from '../helpers/router.js';

const YEAR_AND_A_DAY_MS = 366 * 24 * 3600_000;

describe('router money and membership over HTTP', () => {
  let world: RouterWorld;
  beforeEach(async () => {
    world = await startRouterWorld();
  });
  afterEach(() => world.close());

  it('quotes 2.5 h at 12.50 on gpu_a_96gb and 5.00 on gpu_b_32gb, ignoring a caller rate', async () => {
    const memberId = await newMember(world.api);
    const a = await world.api('POST', '/compute/quote', {
      body: { member_id: memberId, node_class: 'gpu_a_96gb', hours: 2.5, rate: 0.01 },
    });
    const b = await world.api('POST', '/compute/quote', {
      body: { member_id: memberId, node_class: 'gpu_b_32gb', hours: '2.5', hourly_rate: 0.01 },
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      node_class: 'gpu_a_96gb',
      hours: 2.5,
      hourly_rate: '5.00',
      amount: '12.50',
      currency: 'USD',
    });
    expect(b.body).toMatchObject({ hourly_rate: '2.00', amount: '5.00', currency: 'USD' });
    const quotes = (await receipts(world.server.dataDir)).filter((r) => r.type === 'compute_quote');
    expect(quotes.map((r) => [r.amount, r.currency])).toEqual([
      ['12.50', 'USD'],
      ['5.00', 'USD'],
    ]);
  });

  it.each([
    ['an unknown class', { node_class: 'gpu_z', hours: 1 }],
    ['zero hours', { node_class: 'gpu_a_96gb', hours: 0 }],
    ['negative hours', { node_class: 'gpu_a_96gb', hours: -2 }],
    ['non-numeric hours', { node_class: 'gpu_a_96gb', hours: 'two' }],
    ['absurd hours', { node_class: 'gpu_a_96gb', hours: 1e9 }],
    ['more than a year', { node_class: 'gpu_a_96gb', hours: 8760.5 }],
    ['hours as a boolean', { node_class: 'gpu_a_96gb', hours: true }],
  ])('answers 400 for a quote with %s and writes no receipt', async (_name, body) => {
    const memberId = await newMember(world.api);
    const before = (await receipts(world.server.dataDir)).length;
    const answer = await world.api<{ detail: string }>('POST', '/compute/quote', {
      body: { member_id: memberId, ...body },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toMatch(/node_class|hours/);
    expect(await receipts(world.server.dataDir)).toHaveLength(before);
  });

  it('refuses dataset access, quotes and jobs to an inactive member with 403 and no receipt', async () => {
    const memberId = await newMember(world.api, false);
    const dataset = await world.api<{ dataset_id: string }>('POST', '/datasets', {
      body: { name: 'corpus' },
    });
    const access = await world.api('POST', `/datasets/${dataset.body.dataset_id}/access`, {
      body: { member_id: memberId },
    });
    const quote = await world.api('POST', '/compute/quote', {
      body: { member_id: memberId, node_class: 'gpu_a_96gb', hours: 1 },
    });
    const job = await world.api('POST', '/jobs', {
      body: { member_id: memberId, type: 'inference', node_class: 'gpu_a_96gb', hours: 1 },
    });
    expect([access.status, quote.status, job.status]).toEqual([403, 403, 403]);
    expect(await receipts(world.server.dataDir)).toEqual([]);
  });

  it('activates for 100.00 and then grants access with a dataset_access line whose checksum and chain verify', async () => {
    const memberId = await newMember(world.api, false);
    const activated = await world.api<{ expires_at: string }>(
      'POST',
      `/members/${memberId}/activate`,
      { body: {} },
    );
    expect(activated.body).toMatchObject({ member_id: memberId, status: 'active' });
    expect(activated.body.expires_at).toBe('2031-01-01T12:00:00.000Z');
    const dataset = await world.api<{ dataset_id: string }>('POST', '/datasets', {
      body: { name: 'corpus', description: 'text' },
    });
    const access = await world.api<{ receipt_id: string }>(
      'POST',
      `/datasets/${dataset.body.dataset_id}/access`,
      { body: { member_id: memberId } },
    );
    expect(access.status).toBe(200);
    expect(access.body).toMatchObject({ dataset_id: dataset.body.dataset_id, member_id: memberId });

    const lines = await receipts(world.server.dataDir);
    expect(lines.map((l) => l.type)).toEqual(['membership', 'dataset_access']);
    expect(lines[0]).toMatchObject({ amount: '100.00', currency: 'USD' });
    expect(lines[1]).toMatchObject({
      receipt_id: access.body.receipt_id,
      prev_checksum_sha256: lines[0]!.checksum_sha256,
    });
    const [file] = await receiptFiles(world.server.dataDir);
    expect(file).toMatch(/\/2030-01-01\.receipts\.jsonl$/);
    // The anchor is written behind the appends: wait until it has caught up with the file.
    await vi.waitFor(
      async () =>
        expect(await verifyRouterReceiptFiles(file!)).toMatchObject({
          ok: true,
          files_checked: 1,
          receipts_checked: 2,
          errors: [],
        }),
      { timeout: 20_000, interval: 50 },
    );
  });

  it('reads a member as inactive once the clock passes expires_at, and refuses it again', async () => {
    const memberId = await newMember(world.api);
    expect((await world.api('GET', `/members/${memberId}/status`)).body).toMatchObject({
      status: 'active',
    });
    world.server.clock.advance(YEAR_AND_A_DAY_MS);
    expect((await world.api('GET', `/members/${memberId}`)).body).toMatchObject({
      status: 'inactive',
    });
    expect((await world.api('GET', `/members/${memberId}/status`)).body).toMatchObject({
      status: 'inactive',
    });
    const quote = await world.api('POST', '/compute/quote', {
      body: { member_id: memberId, node_class: 'gpu_a_96gb', hours: 1 },
    });
    expect(quote.status).toBe(403);
  });

  it('answers 409 for access to a pending (staging) dataset and 404 for unknown ids', async () => {
    const memberId = await newMember(world.api);
    const staging = await world.api<{ dataset_id: string; status: string }>('POST', '/datasets', {
      body: { name: 'raw', staging: true },
    });
    expect(staging.body.status).toBe('pending');
    const access = await world.api('POST', `/datasets/${staging.body.dataset_id}/access`, {
      body: { member_id: memberId },
    });
    expect(access.status).toBe(409);
    expect((await world.api('GET', '/members/mem_nope')).status).toBe(404);
    expect((await world.api('GET', '/datasets/ds_nope')).status).toBe(404);
    expect((await world.api('GET', '/jobs/job_nope')).status).toBe(404);
  });

  it('pages datasets and counts everything in the admin summary', async () => {
    await newMember(world.api);
    await newMember(world.api, false, 'bob@example.com');
    for (const name of ['a', 'b', 'c']) {
      // Lists are ordered by (created_at, id): a moving clock makes that the creation order.
      world.server.clock.advance(1);
      await world.api('POST', '/datasets', { body: { name } });
    }
    const first = await world.api<{ datasets: Array<{ name: string }>; next: string }>(
      'GET',
      '/datasets?limit=2',
    );
    expect(first.body.datasets.map((d) => d.name)).toEqual(['a', 'b']);
    const second = await world.api<{ datasets: Array<{ name: string }>; next: string | null }>(
      'GET',
      `/datasets?limit=2&after=${encodeURIComponent(first.body.next)}`,
    );
    expect(second.body).toMatchObject({ datasets: [{ name: 'c' }], next: null });
    const node = await world.api('POST', '/compute/register-node', {
      body: { name: 'n1', node_class: 'gpu_b_32gb' },
    });
    expect(node.status).toBe(201);
    const inventory = await world.api<{ node_classes: unknown[]; nodes: unknown[] }>(
      'GET',
      '/compute/inventory',
    );
    expect(inventory.body.node_classes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ node_class: 'gpu_a_96gb', hourly_rate: '5.00' }),
        expect.objectContaining({ node_class: 'gpu_b_32gb', hourly_rate: '2.00', nodes: 1 }),
      ]),
    );
    const summary = await world.api('GET', '/admin/summary');
    expect(summary.body).toMatchObject({
      members: { active: 1, inactive: 1 },
      datasets: 3,
      nodes: 1,
      workers: 0,
    });
  });
});
