import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('projects and tenant isolation over HTTP', () => {
  let server: TestServer;
  let api: Api;
  let alice: SignedIn;
  let bob: SignedIn;

  beforeAll(async () => {
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    alice = await signIn(api, 'alice@example.com');
    bob = await signIn(api, 'bob@example.com');
  });
  afterAll(() => server.close());

  it('creates (201), reads and lists projects', async () => {
    const created = await api<{ id: string; name: string; created_by: string }>(
      'POST',
      '/projects',
      {
        token: alice.token,
        body: { name: '  Payroll  ' },
      },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Payroll', created_by: alice.userId });
    const read = await api('GET', `/projects/${created.body.id}`, { token: alice.token });
    expect(read.body).toEqual(created.body);
  });

  it('pages with ?limit= and the opaque next cursor, visiting every project exactly once', async () => {
    const names = Array.from({ length: 5 }, (_, i) => `paged-${i}`);
    for (const name of names) {
      server.clock.advance(1);
      await api('POST', '/projects', { token: bob.token, body: { name } });
    }
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const query: string = after ? `?limit=2&after=${encodeURIComponent(after)}` : '?limit=2';
      const page = await api<{ projects: Array<{ name: string }>; next: string | null }>(
        'GET',
        `/projects${query}`,
        {
          token: bob.token,
        },
      );
      expect(page.status).toBe(200);
      expect(page.body.projects.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.projects.map((p) => p.name));
      after = page.body.next;
      pages += 1;
    } while (after !== null && pages < 10);
    expect(seen).toEqual(names);
    expect(pages).toBe(3);
  });

  it.each(['0', '201', 'abc', '1.5'])('rejects ?limit=%s with 400', async (limit) => {
    const response = await api('GET', `/projects?limit=${limit}`, { token: bob.token });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ detail: expect.stringContaining('query.limit') });
  });

  it('rejects an unknown query parameter and a garbage cursor with 400', async () => {
    expect((await api('GET', '/projects?limt=2', { token: bob.token })).status).toBe(400);
    expect((await api('GET', '/projects?after=%%%garbage', { token: bob.token })).status).toBe(400);
  });

  it('answers 404 for another organization’s ids exactly as for random ids', async () => {
    const project = await api<{ id: string }>('POST', '/projects', {
      token: alice.token,
      body: { name: 'secret' },
    });
    const invite = await api<{ id: string }>('POST', '/org/invites', {
      token: alice.token,
      body: { email: 'aliceguest@example.com', role: 'member' },
    });
    const key = await api<{ key_id: string }>('POST', '/org/api-keys', {
      token: alice.token,
      body: { name: 'k' },
    });

    const cases: Array<[string, (id: string) => string, string, unknown]> = [
      ['GET', (id) => `/projects/${id}`, project.body.id, undefined],
      ['DELETE', (id) => `/org/invites/${id}`, invite.body.id, undefined],
      ['DELETE', (id) => `/org/api-keys/${id}`, key.body.key_id, undefined],
      ['PATCH', (id) => `/org/members/${id}`, alice.userId, { role: 'member' }],
      ['DELETE', (id) => `/org/members/${id}`, alice.userId, undefined],
    ];
    for (const [method, path, foreignId, body] of cases) {
      const foreign = await api<{ detail: string }>(method, path(foreignId), {
        token: bob.token,
        body,
      });
      const random = await api<{ detail: string }>(
        method,
        path(`${foreignId.slice(0, 4)}doesnotexist`),
        {
          token: bob.token,
          body,
        },
      );
      expect([method, path(foreignId), foreign.status]).toEqual([method, path(foreignId), 404]);
      expect(random.status).toBe(404);
      // The same words for both: the answer does not reveal that the foreign id exists.
      expect(foreign.body).toEqual(random.body);
    }
    // Alice's things are untouched.
    expect((await api('GET', `/projects/${project.body.id}`, { token: alice.token })).status).toBe(
      200,
    );
    const keys = await api<{ keys: Array<{ key_id: string; revoked_at: string | null }> }>(
      'GET',
      '/org/api-keys',
      {
        token: alice.token,
      },
    );
    expect(keys.body.keys.find((k) => k.key_id === key.body.key_id)?.revoked_at).toBeNull();
    const invites = await api<{ invites: Array<{ id: string; revoked_at: string | null }> }>(
      'GET',
      '/org/invites',
      {
        token: alice.token,
      },
    );
    expect(invites.body.invites.find((i) => i.id === invite.body.id)?.revoked_at).toBeNull();
    const me = await api<{ role: string }>('GET', '/auth/me', { token: alice.token });
    expect(me.body.role).toBe('owner');
  });

  it('never lists another organization’s projects', async () => {
    const list = await api<{ projects: Array<{ name: string }> }>('GET', '/projects?limit=200', {
      token: bob.token,
    });
    expect(list.body.projects.map((p) => p.name)).not.toContain('secret');
  });
});
