import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/openapi.js';
import { startRouterWorld, type RouterWorld } from '../helpers/router.js';

/** The router's route table (docs/router.md), copied by hand so a missing or renamed route fails here. */
const SPEC_ROUTES = [
  'GET /health',
  'GET /admin/summary',
  'GET /admin/workers',
  'GET /admin/workers/{worker_id}',
  'POST /members',
  'GET /members/{member_id}',
  'POST /members/{member_id}/activate',
  'GET /members/{member_id}/status',
  'POST /datasets',
  'GET /datasets',
  'GET /datasets/{dataset_id}',
  'POST /datasets/{dataset_id}/access',
  'GET /compute/inventory',
  'POST /compute/register-node',
  'POST /compute/quote',
  'POST /jobs',
  'GET /jobs/{job_id}',
  'POST /jobs/{job_id}/start',
  'POST /jobs/{job_id}/complete',
  'POST /jobs/{job_id}/cancel',
  'POST /workers/register',
  'POST /workers/heartbeat',
  'POST /workers/jobs/lease',
  'POST /workers/jobs/{job_id}/accept',
  'POST /workers/jobs/{job_id}/status',
  'POST /workers/jobs/{job_id}/logs',
  'POST /workers/jobs/{job_id}/artifacts',
  'POST /workers/jobs/{job_id}/complete',
  'POST /workers/jobs/{job_id}/fail',
];

type Json = Record<string, unknown>;
interface Operation {
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

describe('the router listener’s /openapi.json', () => {
  let world: RouterWorld;
  let document: Json;
  let operations: Map<string, Operation>;

  beforeAll(async () => {
    world = await startRouterWorld();
    ({ document } = await apiClient(world.server.routerUrl));
    operations = new Map();
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(item)) {
        operations.set(`${method.toUpperCase()} ${path}`, op as Operation);
      }
    }
  });
  afterAll(() => world.close());

  it('declares exactly the routes of the router table, each once', () => {
    expect([...operations.keys()].sort()).toEqual([...SPEC_ROUTES].sort());
  });

  it('answers every success with a named component, so clients get stable type names', () => {
    for (const [key, op] of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        const schema = response.content?.['application/json']?.schema;
        if (status === '204') {
          expect([key, response.content]).toEqual([key, undefined]);
          continue;
        }
        expect([key, status, schema?.$ref]).toEqual([
          key,
          status,
          expect.stringMatching(/^#\/components\/schemas\/[A-Z]\w+$/),
        ]);
      }
    }
  });

  it('puts the worker token on /workers/* except register, which takes the registration key, and nothing elsewhere', () => {
    for (const [key, op] of operations) {
      const worker = key.includes(' /workers/') && key !== 'POST /workers/register';
      const expected =
        key === 'POST /workers/register'
          ? [{ registrationKey: [] }]
          : worker
            ? [{ workerToken: [] }]
            : [];
      expect([key, op.security]).toEqual([key, expected]);
      if (worker)
        expect([key, Object.keys(op.responses)]).toEqual([key, expect.arrayContaining(['401'])]);
    }
    expect(operations.get('POST /workers/jobs/lease')?.responses).toHaveProperty('204');
    expect(Object.keys(operations.get('POST /workers/register')!.responses)).toEqual(
      expect.arrayContaining(['201', '401', '503']),
    );
  });

  it('is a separate document from the main API’s, which has no router routes', async () => {
    const main = await apiClient(world.server.url);
    expect(Object.keys(main.document.paths as Json)).not.toContain('/workers/jobs/lease');
    expect(Object.keys(document.paths as Json)).not.toContain('/auth/request');
    expect((document.info as Json).version).toBe('0.1');
  });

  it('serves health with the API version, validated against the document', async () => {
    const health = await world.api('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ ok: true, version: '0.1' });
  });
});
