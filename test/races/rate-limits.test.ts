import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type Api, type ApiResponse } from '../helpers/openapi.js';
import { freshSchemaUrl, postgresSkipped } from '../helpers/postgres.js';
import { spawnServer, type ServerProcess } from '../helpers/processes.js';

const LIMITS = { perEmail: 3, perIp: 10, verifyPerIp: 4 };

/**
 * The sign-in limits are counted in the database: two real server processes on one PostgreSQL
 * database together accept exactly the limit, not twice it (docs/operations.md, "Rate limits").
 */
describe.skipIf(postgresSkipped)('rate limits shared by two server processes', () => {
  const servers: ServerProcess[] = [];
  let main: Api[];

  beforeAll(async () => {
    const env = {
      DATABASE_URL: await freshSchemaUrl(),
      JWT_SECRET: 'jwt-secret-shared-by-both-instances-0123456789',
      AUTH_REQUEST_LIMIT_PER_EMAIL: String(LIMITS.perEmail),
      AUTH_REQUEST_LIMIT_PER_IP: String(LIMITS.perIp),
      AUTH_VERIFY_LIMIT_PER_IP: String(LIMITS.verifyPerIp),
      // Long enough that the test never straddles two windows in practice.
      AUTH_REQUEST_WINDOW_SECONDS: '86400',
    };
    servers.push(await spawnServer(env));
    servers.push(await spawnServer(env));
    main = await Promise.all(servers.map(async (s) => (await apiClient(s.url)).api));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  /** `n` calls alternating between the servers, all started at once. */
  const both = (n: number, call: (api: Api, i: number) => Promise<ApiResponse>) =>
    Promise.all(Array.from({ length: n }, (_, i) => call(main[i % 2]!, i)));

  const expectLimited = (answers: ApiResponse[], ok: number, allowed: number) => {
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === ok)).toHaveLength(allowed);
    expect(statuses.filter((s) => s === 429)).toHaveLength(answers.length - allowed);
    for (const limited of answers.filter((a) => a.status === 429)) {
      expect(limited.body).toEqual({ detail: expect.any(String) });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  };

  it('accepts POST /auth/verify guesses up to AUTH_VERIFY_LIMIT_PER_IP across both servers', async () => {
    const answers = await both(12, (api, i) =>
      api('POST', '/auth/verify', { body: { token: `guess-${i}-${'x'.repeat(40)}` } }),
    );
    expectLimited(answers, 401, LIMITS.verifyPerIp);
  });

  it('accepts sign-in requests up to the per-e-mail, then the per-address limit across both servers', async () => {
    const oneEmail = await both(6, (api) =>
      api('POST', '/auth/request', { body: { email: 'busy@example.com' } }),
    );
    expectLimited(oneEmail, 200, LIMITS.perEmail);
    // Each of those six counted against the address too: what is left of its budget, and no more.
    const manyEmails = await both(20, (api, i) =>
      api('POST', '/auth/request', { body: { email: `someone-${i}@example.com` } }),
    );
    expectLimited(manyEmails, 200, LIMITS.perIp - oneEmail.length);
  });
});
