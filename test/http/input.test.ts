import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Case = [method: string, path: string, body: unknown, field: string];

describe('request validation over HTTP', () => {
  let server: TestServer;
  let api: Api;
  let owner: SignedIn;

  beforeAll(async () => {
    server = await startTestServer({ JSON_BODY_LIMIT_BYTES: '2048' });
    ({ api } = await apiClient(server.url));
    owner = await signIn(api, 'strict@example.com');
  });
  afterAll(() => server.close());

  const snapshot = async () =>
    Promise.all(
      [
        '/projects?limit=200',
        '/org/api-keys?limit=200',
        '/org/invites?limit=200',
        '/org/members?limit=200',
      ].map(async (path) => (await api('GET', path, { token: owner.token })).text),
    );

  const cases: Case[] = [
    ['POST', '/auth/request', {}, 'body.email'],
    ['POST', '/auth/request', { email: 42 }, 'body.email'],
    ['POST', '/auth/request', { email: 'not-an-email' }, 'body.email'],
    ['POST', '/auth/request', { email: 'a@example.com', admin: true }, 'body.admin'],
    ['POST', '/auth/verify', {}, 'body.token'],
    ['POST', '/auth/verify', { token: ['x'] }, 'body.token'],
    ['POST', '/auth/accept-invite', { token: 'x', extra: 1 }, 'body.extra'],
    ['POST', '/projects', {}, 'body.name'],
    ['POST', '/projects', { name: '   ' }, 'body.name'],
    ['POST', '/projects', { name: 'x'.repeat(201) }, 'body.name'],
    ['POST', '/projects', { name: 'ok', id: 'prj_mine' }, 'body.id'],
    ['POST', '/org/api-keys', { name: 5 }, 'body.name'],
    ['POST', '/org/api-keys', { name: 'k', key: 'rlk_chosen' }, 'body.key'],
    ['POST', '/org/invites', { email: 'x@example.com' }, 'body.role'],
    ['POST', '/org/invites', { email: 'x@example.com', role: 'admin' }, 'body.role'],
    ['PATCH', '/org/members/usr_x', { role: 'king' }, 'body.role'],
    ['PATCH', '/org/members/usr_x', {}, 'body.role'],
  ];

  it.each(cases)(
    '%s %s with %j answers 400 naming %s, and changes nothing',
    async (method, path, body, field) => {
      const before = await snapshot();
      const response = await api<{ detail: string }>(method, path, { token: owner.token, body });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['detail']);
      expect(response.body.detail).toContain(field);
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each(['/auth/request', '/projects', '/org/api-keys', '/org/invites'])(
    'POST %s answers 400 for malformed JSON, 415 for another content type and 413 for an oversized body',
    async (path) => {
      const before = await snapshot();
      const malformed = await api('POST', path, { token: owner.token, body: '{"name": ' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ detail: expect.any(String) });
      const wrongType = await api('POST', path, {
        token: owner.token,
        body: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(wrongType.status).toBe(415);
      expect(wrongType.body).toEqual({ detail: expect.any(String) });
      const huge = await api('POST', path, {
        token: owner.token,
        body: { name: 'x'.repeat(4096) },
      });
      expect(huge.status).toBe(413);
      expect(huge.body).toEqual({ detail: expect.any(String) });
      const empty = await api('POST', path, {
        token: owner.token,
        headers: { 'content-type': 'application/json' },
      });
      expect(empty.status).toBe(400);
      expect(await snapshot()).toEqual(before);
    },
  );

  it('answers unknown routes with 404 {detail} and never leaks internals in errors', async () => {
    const response = await api('GET', '/no/such/route', { token: owner.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: expect.any(String) });
    const token = 'Zm9vYmFyLXNlY3JldC1zaGFyZS10b2tlbi0wMDAwMDAwMDA';
    const typo = await api('GET', `/share/${token}/pdff`);
    expect(typo.status).toBe(404);
    expect(typo.text).not.toContain(token);
    const malformed = await api('POST', '/projects', { token: owner.token, body: '{bad' });
    expect(malformed.text).not.toMatch(/at |SyntaxError|\/work\/|node_modules|SQLITE/);
  });

  it('echoes a plain X-Request-Id and sets security headers', async () => {
    const response = await api('GET', '/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(response.body).toEqual({ ok: true });
    expect(response.headers.get('x-request-id')).toBe('abc-123');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-powered-by')).toBeNull();
    const generated = await api('GET', '/health', {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
