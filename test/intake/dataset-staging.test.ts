import { afterEach, describe, expect, it } from 'vitest';
import { apiClient, type Api } from '../helpers/openapi.js';
import { newMember, receipts, startRouterWorld, type RouterWorld } from '../helpers/router.js';

const INTERNAL_KEY = 'internal-key-0123456789abcdef';

interface DatasetBody {
  dataset_id: string;
  status: string;
  error: string | null;
}

describe('dataset staging over the internal route', () => {
  let world: RouterWorld;
  let main: Api;
  afterEach(() => world.close());

  async function start(env: Record<string, string> = { INTERNAL_API_KEY: INTERNAL_KEY }) {
    world = await startRouterWorld(env);
    main = (await apiClient(world.server.url)).api;
  }

  async function dataset(staging: boolean): Promise<string> {
    const created = await world.api<DatasetBody>('POST', '/datasets', {
      body: { name: 'corpus', ...(staging ? { staging: true } : {}) },
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe(staging ? 'pending' : 'ready');
    return created.body.dataset_id;
  }

  const stage = (id: string, body: unknown, key: string | null = INTERNAL_KEY) =>
    main<DatasetBody>('POST', `/internal/datasets/${id}/stage`, {
      body,
      ...(key !== null ? { headers: { 'x-internal-key': key } } : {}),
    });

  const access = (id: string, memberId: string) =>
    world.api('POST', `/datasets/${id}/access`, { body: { member_id: memberId } });

  const statusOf = async (id: string) =>
    (await world.api<DatasetBody>('GET', `/datasets/${id}`)).body.status;

  it('moves pending → staging → ready, answering 409 to access requests until ready', async () => {
    await start();
    const memberId = await newMember(world.api);
    const id = await dataset(true);
    expect((await access(id, memberId)).status).toBe(409);

    const staging = await stage(id, { status: 'staging' });
    expect(staging.status).toBe(200);
    expect(staging.body).toMatchObject({ dataset_id: id, status: 'staging', error: null });
    expect((await access(id, memberId)).status).toBe(409);

    const ready = await stage(id, { status: 'ready' });
    expect(ready.body.status).toBe('ready');
    const granted = await access(id, memberId);
    expect(granted.status).toBe(200);
    const types = (await receipts(world.server.dataDir)).map((r) => r.type);
    expect(types).toEqual(['membership', 'dataset_access']);
  });

  it('allows pending → ready directly, and staging → failed with an error that keeps access closed', async () => {
    await start();
    const memberId = await newMember(world.api);
    const direct = await dataset(true);
    expect((await stage(direct, { status: 'ready' })).body.status).toBe('ready');
    expect((await access(direct, memberId)).status).toBe(200);

    const broken = await dataset(true);
    await stage(broken, { status: 'staging' });
    const failed = await stage(broken, { status: 'failed', error: 'checksum mismatch' });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'failed', error: 'checksum mismatch' });
    expect((await access(broken, memberId)).status).toBe(409);
    expect((await stage(broken, { status: 'ready' })).status).toBe(409);
    expect(await statusOf(broken)).toBe('failed');
  });

  it('answers 409 for every other move and 400 for an error without failed, changing nothing', async () => {
    await start();
    const ready = await dataset(false);
    for (const status of ['staging', 'ready', 'failed']) {
      expect([status, (await stage(ready, { status })).status]).toEqual([status, 409]);
    }
    const pending = await dataset(true);
    expect((await stage(pending, { status: 'failed' })).status).toBe(409);
    expect((await stage(pending, { status: 'ready', error: 'x' })).status).toBe(400);
    expect((await stage(pending, { status: 'pending' })).status).toBe(400);
    await stage(pending, { status: 'staging' });
    expect((await stage(pending, { status: 'staging' })).status).toBe(409);
    expect(await statusOf(pending)).toBe('staging');
    expect(await statusOf(ready)).toBe('ready');
    expect((await stage('dst_nope', { status: 'ready' })).status).toBe(404);
  });

  it('answers 401 for a missing or wrong X-Internal-Key and changes nothing', async () => {
    await start();
    const id = await dataset(true);
    for (const key of [null, 'wrong', `${INTERNAL_KEY}x`, INTERNAL_KEY.slice(0, -1)]) {
      const refused = await stage(id, { status: 'ready' }, key);
      expect([key, refused.status]).toEqual([key, 401]);
    }
    expect(await statusOf(id)).toBe('pending');
  });

  it('answers 503 while INTERNAL_API_KEY is unset, whatever key is sent', async () => {
    await start({});
    const id = await dataset(true);
    const refused = await stage(id, { status: 'ready' }, 'anything');
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ detail: expect.stringContaining('INTERNAL_API_KEY') });
    expect(await statusOf(id)).toBe('pending');
  });
});
