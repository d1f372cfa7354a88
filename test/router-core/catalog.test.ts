import { verifyRouterReceiptFiles } from '@runledger/verify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  activeMember,
  openRouterWorld,
  readReceipts,
  rejectsWith,
  type RouterCoreWorld,
} from './setup.js';
import { engines } from '../helpers/postgres.js';

describe.each(engines)('%s', (engine) => {
  let w: RouterCoreWorld;
  beforeEach(async () => {
    w = await openRouterWorld({}, undefined, engine);
  });
  afterEach(async () => {
    await w.close();
  });

  const YEAR_MS = 365 * 24 * 3600 * 1000;

  describe('members', () => {
    it('creates an inactive member and activates it for one year with a membership receipt of 100.00', async () => {
      const m = await w.router.createMember({ email: 'Ada@Example.com ', name: ' Ada ' });
      expect(m).toMatchObject({
        email: 'ada@example.com',
        name: 'Ada',
        status: 'inactive',
        expires_at: null,
      });
      const activated = await w.router.activateMember(m.member_id);
      expect(activated).toMatchObject({
        member_id: m.member_id,
        status: 'active',
        expires_at: '2026-03-01T12:00:00.000Z',
        amount: '100.00',
        currency: 'USD',
      });
      const lines = await readReceipts(w.receiptsDir);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        receipt_id: activated.receipt_id,
        type: 'membership',
        amount: '100.00',
        currency: 'USD',
        subject: { member_id: m.member_id },
      });
      expect(activated.receipt_id).toMatch(/^rr_[a-z2-7]{26}$/);
      expect((await verifyRouterReceiptFiles(w.receiptsDir)).ok).toBe(true);
    });

    it('reads as inactive once expires_at has passed, and a renewal while active extends the term', async () => {
      const id = await activeMember(w.router);
      expect((await w.router.memberStatus(id)).active).toBe(true);
      w.clock.advance(100 * 24 * 3600 * 1000);
      const renewed = await w.router.activateMember(id);
      expect(renewed.expires_at).toBe('2027-03-01T12:00:00.000Z');
      w.clock.advance(2 * YEAR_MS);
      expect(await w.router.memberStatus(id)).toMatchObject({ status: 'inactive', active: false });
      expect((await w.router.getMember(id)).status).toBe('inactive');
    });

    it('answers not_found for an unknown member', async () => {
      await rejectsWith(w.router.getMember('mbr_nope'), 'not_found');
      await rejectsWith(w.router.activateMember('mbr_nope'), 'not_found');
    });
  });

  describe('datasets', () => {
    it('grants an active member access once, with one dataset_access receipt that verifies', async () => {
      const member = await activeMember(w.router);
      const ds = await w.router.createDataset({ name: 'corpus' });
      expect(ds).toMatchObject({ status: 'ready', description: null });
      const grant = await w.router.grantDatasetAccess(ds.dataset_id, { member_id: member });
      const again = await w.router.grantDatasetAccess(ds.dataset_id, { member_id: member });
      expect(again).toEqual(grant);
      const lines = (await readReceipts(w.receiptsDir)).filter((l) => l.type === 'dataset_access');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        receipt_id: grant.receipt_id,
        subject: { dataset_id: ds.dataset_id, member_id: member },
      });
      expect((await verifyRouterReceiptFiles(w.receiptsDir)).ok).toBe(true);
    });

    it('refuses an inactive member with forbidden and a staging dataset with conflict, writing nothing', async () => {
      const inactive = (await w.router.createMember({ email: 'b@example.com', name: 'B' }))
        .member_id;
      const ds = await w.router.createDataset({ name: 'corpus' });
      await rejectsWith(
        w.router.grantDatasetAccess(ds.dataset_id, { member_id: inactive }),
        'forbidden',
      );
      const staging = await w.router.createDataset({ name: 'raw', staging: true });
      const active = await activeMember(w.router);
      await rejectsWith(
        w.router.grantDatasetAccess(staging.dataset_id, { member_id: active }),
        'conflict',
      );
      await rejectsWith(
        w.router.grantDatasetAccess('dst_nope', { member_id: active }),
        'not_found',
      );
      const types = (await readReceipts(w.receiptsDir)).map((l) => l.type);
      expect(types).toEqual(['membership']);
    });

    it('pages datasets by cursor without gaps or repeats', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push((await w.router.createDataset({ name: `d${i}` })).dataset_id);
        w.clock.advance(1);
      }
      const first = await w.router.listDatasets({ limit: 2 });
      const second = await w.router.listDatasets({ limit: 2, after: first.next! });
      const third = await w.router.listDatasets({ limit: 2, after: second.next! });
      expect([...first.items, ...second.items, ...third.items].map((d) => d.dataset_id)).toEqual(
        ids,
      );
      expect(third.next).toBeNull();
    });
  });

  describe('compute', () => {
    it('quotes 2.5 h at 12.50 on gpu_a_96gb and 5.00 on gpu_b_32gb, ignoring a caller rate', async () => {
      const member = await activeMember(w.router);
      const a = await w.router.quote({
        member_id: member,
        node_class: 'gpu_a_96gb',
        hours: 2.5,
        rate: 0.01,
      });
      const b = await w.router.quote({
        member_id: member,
        node_class: 'gpu_b_32gb',
        hours: '2.5',
        hourly_rate: 0.01,
      });
      expect(a).toMatchObject({
        hourly_rate: '5.00',
        amount: '12.50',
        currency: 'USD',
        hours: 2.5,
      });
      expect(b).toMatchObject({ hourly_rate: '2.00', amount: '5.00' });
      const quotes = (await readReceipts(w.receiptsDir)).filter((l) => l.type === 'compute_quote');
      expect(quotes.map((q) => [q.receipt_id, q.amount])).toEqual([
        [a.receipt_id, '12.50'],
        [b.receipt_id, '5.00'],
      ]);
    });

    it.each([[0], [-1], ['two'], [8760.5], [1e9]])(
      'rejects %s hours with invalid_input',
      async (hours) => {
        const member = await activeMember(w.router);
        await rejectsWith(
          w.router.quote({ member_id: member, node_class: 'gpu_a_96gb', hours }),
          'invalid_input',
        );
      },
    );

    it('refuses quotes and jobs for an inactive member', async () => {
      const m = (await w.router.createMember({ email: 'c@example.com', name: 'C' })).member_id;
      await rejectsWith(
        w.router.quote({ member_id: m, node_class: 'gpu_a_96gb', hours: 1 }),
        'forbidden',
      );
      await rejectsWith(
        w.router.createJob({ member_id: m, type: 'eval', node_class: 'gpu_a_96gb', hours: 1 }),
        'forbidden',
      );
      expect(await readReceipts(w.receiptsDir).catch(() => [])).toEqual([]);
    });

    it('lists node classes with server rates, and registered nodes', async () => {
      const node = await w.router.registerNode({ name: 'rack-1', node_class: 'gpu_b_32gb' });
      const inv = await w.router.inventory();
      expect(inv.node_classes).toEqual([
        { node_class: 'gpu_a_96gb', hourly_rate: '5.00', currency: 'USD', nodes: 0, workers: 0 },
        { node_class: 'gpu_b_32gb', hourly_rate: '2.00', currency: 'USD', nodes: 1, workers: 0 },
      ]);
      expect(inv.nodes).toEqual([node]);
    });

    it('creates queued jobs with compute_job or fine_tune_job receipts carrying the estimate', async () => {
      const member = await activeMember(w.router);
      const job = await w.router.createJob({
        member_id: member,
        type: 'inference',
        node_class: 'gpu_a_96gb',
        hours: 2.5,
        input: { prompt: 'hi' },
        hourly_rate: 0.01,
      });
      expect(job).toMatchObject({
        status: 'queued',
        attempt: 1,
        estimated_amount: '12.50',
        input: { prompt: 'hi' },
      });
      const ft = await w.router.createJob({
        member_id: member,
        type: 'fine_tune',
        node_class: 'gpu_b_32gb',
        hours: 1,
      });
      const lines = await readReceipts(w.receiptsDir);
      expect(lines.slice(1).map((l) => [l.type, l.subject.job_id, l.amount])).toEqual([
        ['compute_job', job.job_id, '12.50'],
        ['fine_tune_job', ft.job_id, '2.00'],
      ]);
      expect(await w.router.getJob(job.job_id)).toEqual(job);
      expect((await w.router.summary()).jobs).toEqual({
        queued: 2,
        leased: 0,
        running: 0,
        completed: 0,
        failed: 0,
        canceled: 0,
      });
    });
  });
});
