import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JWT_AUDIENCE, JWT_ISSUER } from '@runledger/server';
import { signIn, tokenOfLink } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

describe('sign-in over HTTP', () => {
  let server: TestServer;
  let api: Api;

  beforeAll(async () => {
    server = await startTestServer({ JWT_SECRET: SECRET, MAGIC_LINK_TTL_MINUTES: '10' });
    ({ api } = await apiClient(server.url));
  });
  afterAll(() => server.close());

  it('signs in with request → dev_link → verify → me', async () => {
    const requested = await api<{ ok: boolean; sent: boolean; dev_link: string }>(
      'POST',
      '/auth/request',
      {
        body: { email: 'Ada@Example.com' },
      },
    );
    expect(requested.status).toBe(200);
    expect(requested.body).toMatchObject({ ok: true, sent: false });
    expect(requested.body.dev_link).toMatch(
      /^http:\/\/runledger\.test\/auth\/verify\?token=[A-Za-z0-9_-]{43}$/,
    );

    const verified = await api<{
      access_token: string;
      token_type: string;
      user: Record<string, string>;
    }>('POST', '/auth/verify', { body: { token: tokenOfLink(requested.body.dev_link) } });
    expect(verified.status).toBe(200);
    expect(verified.body.token_type).toBe('bearer');
    expect(verified.body.user).toMatchObject({
      email: 'ada@example.com',
      role: 'owner',
      kind: 'user',
    });

    const me = await api('GET', '/auth/me', { token: verified.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(verified.body.user);

    const claims = jwt.decode(verified.body.access_token, { complete: true });
    expect(claims?.header.alg).toBe('HS256');
    expect(Object.keys(claims?.payload as object).sort()).toEqual([
      'aud',
      'exp',
      'iat',
      'iss',
      'jti',
      'org',
      'sub',
    ]);
  });

  it('answers the same shape for a known and an unknown e-mail', async () => {
    await signIn(api, 'known@example.com');
    const known = await api('POST', '/auth/request', { body: { email: 'known@example.com' } });
    const unknown = await api('POST', '/auth/request', { body: { email: 'nobody@example.com' } });
    expect(Object.keys(known.body).sort()).toEqual(Object.keys(unknown.body).sort());
    expect(known.status).toBe(unknown.status);
  });

  it('GET on the link explains and does not consume the token', async () => {
    const requested = await api<{ dev_link: string }>('POST', '/auth/request', {
      body: { email: 'scan@example.com' },
    });
    const token = tokenOfLink(requested.body.dev_link);
    const path = `/auth/verify?token=${token}`;
    const asJson = await api('GET', path);
    expect(asJson.status).toBe(200);
    expect(asJson.body).toMatchObject({ method: 'POST', path: '/auth/verify', body: { token } });
    const asHtml = await api('GET', path, { headers: { accept: 'text/html' } });
    expect(asHtml.headers.get('content-type')).toMatch(/^text\/html/);
    expect(asHtml.text).toContain('POST');
    // The command names the deployment (PUBLIC_BASE_URL, as in the link itself), not a placeholder.
    const base = new URL(requested.body.dev_link).origin;
    expect(asHtml.text).toContain(`${base}/auth/verify</pre>`);
    expect(asHtml.text).not.toContain('base_url');
    const verified = await api('POST', '/auth/verify', { body: { token } });
    expect(verified.status).toBe(200);
  });

  it('rejects a reused, expired, tampered or unknown link token with 401', async () => {
    const first = await api<{ dev_link: string }>('POST', '/auth/request', {
      body: { email: 'once@example.com' },
    });
    const token = tokenOfLink(first.body.dev_link);
    expect((await api('POST', '/auth/verify', { body: { token } })).status).toBe(200);
    const reused = await api('POST', '/auth/verify', { body: { token } });
    expect(reused.status).toBe(401);
    expect(reused.body).toEqual({ detail: expect.any(String) });

    const second = await api<{ dev_link: string }>('POST', '/auth/request', {
      body: { email: 'late@example.com' },
    });
    const late = tokenOfLink(second.body.dev_link);
    const tampered = late.slice(0, -1) + (late.endsWith('A') ? 'B' : 'A');
    expect((await api('POST', '/auth/verify', { body: { token: tampered } })).status).toBe(401);
    expect((await api('POST', '/auth/verify', { body: { token: 'not-a-token' } })).status).toBe(
      401,
    );
    server.clock.advance(10 * 60_000 + 1);
    expect((await api('POST', '/auth/verify', { body: { token: late } })).status).toBe(401);
  });

  it('rejects an invite token at /auth/verify (wrong purpose) with 401 and keeps it usable for accept-invite', async () => {
    const owner = await signIn(api, 'inviter@example.com');
    const invite = await api<{ dev_link: string }>('POST', '/org/invites', {
      token: owner.token,
      body: { email: 'guest@example.com', role: 'member' },
    });
    expect(invite.status).toBe(201);
    const inviteToken = tokenOfLink(invite.body.dev_link);
    expect((await api('POST', '/auth/verify', { body: { token: inviteToken } })).status).toBe(401);
    const accepted = await api<{ user: { org_id: string; role: string } }>(
      'POST',
      '/auth/accept-invite',
      {
        body: { token: inviteToken },
      },
    );
    expect(accepted.status).toBe(200);
    expect(accepted.body.user).toMatchObject({ org_id: owner.orgId, role: 'member' });
  });

  describe('JWT checks', () => {
    let user: { token: string; userId: string; orgId: string };
    const now = () => Math.floor(server.clock.now().getTime() / 1000);
    const claims = () => ({
      sub: user.userId,
      org: user.orgId,
      iss: JWT_ISSUER,
      aud: JWT_AUDIENCE,
      iat: now(),
      exp: now() + 3600,
      jti: 'j1',
    });

    beforeAll(async () => {
      user = await signIn(api, 'jwt@example.com');
    });

    it('accepts a correctly signed token (the control for the cases below)', async () => {
      const token = jwt.sign(claims(), SECRET, { algorithm: 'HS256' });
      expect((await api('GET', '/auth/me', { token })).status).toBe(200);
    });

    it.each([
      ['alg none', () => jwt.sign(claims(), '', { algorithm: 'none' })],
      ['a wrong secret', () => jwt.sign(claims(), `${SECRET}x`, { algorithm: 'HS256' })],
      ['HS512 with the right secret', () => jwt.sign(claims(), SECRET, { algorithm: 'HS512' })],
      [
        'an expired token',
        () =>
          jwt.sign({ ...claims(), iat: now() - 7200, exp: now() - 1 }, SECRET, {
            algorithm: 'HS256',
          }),
      ],
      [
        'a wrong audience',
        () => jwt.sign({ ...claims(), aud: 'someone-else' }, SECRET, { algorithm: 'HS256' }),
      ],
      [
        'a wrong issuer',
        () => jwt.sign({ ...claims(), iss: 'someone-else' }, SECRET, { algorithm: 'HS256' }),
      ],
      ['no jti', () => jwt.sign({ ...claims(), jti: undefined }, SECRET, { algorithm: 'HS256' })],
      [
        'another org than the user’s',
        () => jwt.sign({ ...claims(), org: 'org_other' }, SECRET, { algorithm: 'HS256' }),
      ],
    ])('rejects %s with 401', async (_name, make) => {
      const response = await api('GET', '/auth/me', { token: make() });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ detail: expect.any(String) });
    });

    it('expires the issued token after JWT_TTL_HOURS', async () => {
      const fresh = await signIn(api, 'ttl@example.com');
      server.clock.advance(720 * 3600_000 + 1000);
      expect((await api('GET', '/auth/me', { token: fresh.token })).status).toBe(401);
    });

    it('answers 401 without credentials and for a malformed Authorization header', async () => {
      expect((await api('GET', '/auth/me')).status).toBe(401);
      expect(
        (await api('GET', '/auth/me', { headers: { authorization: 'Basic abc' } })).status,
      ).toBe(401);
    });
  });
});

describe('rate limit on POST /auth/request', () => {
  let server: TestServer;
  let api: Api;

  beforeAll(async () => {
    server = await startTestServer({
      AUTH_REQUEST_LIMIT_PER_EMAIL: '2',
      AUTH_REQUEST_LIMIT_PER_IP: '4',
      AUTH_REQUEST_WINDOW_SECONDS: '60',
    });
    ({ api } = await apiClient(server.url));
  });
  afterAll(() => server.close());

  it('limits per e-mail with 429 and Retry-After, and resets after the window', async () => {
    const body = { email: 'busy@example.com' };
    expect((await api('POST', '/auth/request', { body })).status).toBe(200);
    expect((await api('POST', '/auth/request', { body })).status).toBe(200);
    const limited = await api('POST', '/auth/request', { body });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ detail: expect.any(String) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    server.clock.advance(60_000);
    expect((await api('POST', '/auth/request', { body })).status).toBe(200);
  });

  it('limits per client address across different e-mails', async () => {
    server.clock.advance(60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      statuses.push(
        (await api('POST', '/auth/request', { body: { email: `ip${i}@example.com` } })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});
