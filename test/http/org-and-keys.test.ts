import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, tokenOfLink, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('organizations, roles and API keys over HTTP', () => {
  let server: TestServer;
  let api: Api;
  let owner: SignedIn;
  let member: SignedIn;

  beforeAll(async () => {
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    owner = await signIn(api, 'owner@example.com');
    const invite = await api<{ dev_link: string }>('POST', '/org/invites', {
      token: owner.token,
      body: { email: 'member@example.com', role: 'member' },
    });
    // An invited e-mail that signs in normally joins the inviting organization.
    member = await signIn(api, 'member@example.com');
    expect(member.orgId).toBe(owner.orgId);
    expect(invite.status).toBe(201);
  });
  afterAll(() => server.close());

  it('lists the organization and its members to anyone in it', async () => {
    const org = await api<{ id: string }>('GET', '/org', { token: member.token });
    expect(org.status).toBe(200);
    expect(org.body.id).toBe(owner.orgId);
    const members = await api<{ members: Array<{ email: string; role: string }>; next: null }>(
      'GET',
      '/org/members',
      {
        token: member.token,
      },
    );
    expect(members.body.members.map((m) => [m.email, m.role]).sort()).toEqual([
      ['member@example.com', 'member'],
      ['owner@example.com', 'owner'],
    ]);
  });

  it.each([
    ['GET', '/org/invites', undefined],
    ['POST', '/org/invites', { email: 'x@example.com', role: 'member' }],
    ['GET', '/org/api-keys', undefined],
    ['POST', '/org/api-keys', { name: 'ci' }],
    ['DELETE', '/org/api-keys/key_whatever', undefined],
    ['DELETE', '/org/invites/inv_whatever', undefined],
    ['PATCH', '/org/members/usr_whatever', { role: 'owner' }],
    ['DELETE', '/org/members/usr_whatever', undefined],
  ])('forbids a member %s %s with 403', async (method, path, body) => {
    const response = await api(method, path, { token: member.token, body });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ detail: expect.any(String) });
  });

  it('applies a role change to an already-issued token at once', async () => {
    const promoted = await api('PATCH', `/org/members/${member.userId}`, {
      token: owner.token,
      body: { role: 'owner' },
    });
    expect(promoted.status).toBe(200);
    expect((await api('GET', '/org/invites', { token: member.token })).status).toBe(200);
    const demoted = await api('PATCH', `/org/members/${member.userId}`, {
      token: owner.token,
      body: { role: 'member' },
    });
    expect(demoted.status).toBe(200);
    expect((await api('GET', '/org/invites', { token: member.token })).status).toBe(403);
  });

  it('refuses to demote or remove the last owner with 409', async () => {
    const demote = await api('PATCH', `/org/members/${owner.userId}`, {
      token: owner.token,
      body: { role: 'member' },
    });
    expect(demote.status).toBe(409);
    const remove = await api('DELETE', `/org/members/${owner.userId}`, { token: owner.token });
    expect(remove.status).toBe(409);
    const me = await api<{ role: string }>('GET', '/auth/me', { token: owner.token });
    expect(me.body.role).toBe('owner');
  });

  it('lists and revokes invites; a revoked invite cannot be accepted', async () => {
    const created = await api<{ id: string; dev_link: string }>('POST', '/org/invites', {
      token: owner.token,
      body: { email: 'later@example.com', role: 'member' },
    });
    const listed = await api<{ invites: Array<{ id: string }> }>('GET', '/org/invites', {
      token: owner.token,
    });
    expect(listed.body.invites.map((i) => i.id)).toContain(created.body.id);
    expect(
      (await api('DELETE', `/org/invites/${created.body.id}`, { token: owner.token })).status,
    ).toBe(204);
    const accept = await api('POST', '/auth/accept-invite', {
      body: { token: tokenOfLink(created.body.dev_link) },
    });
    expect(accept.status).toBe(401);
  });

  it('answers 409 when a user of another organization accepts an invite', async () => {
    const outsider = await signIn(api, 'outsider@example.com');
    const invite = await api<{ dev_link: string }>('POST', '/org/invites', {
      token: owner.token,
      body: { email: 'outsider@example.com', role: 'member' },
    });
    const accept = await api('POST', '/auth/accept-invite', {
      body: { token: tokenOfLink(invite.body.dev_link) },
    });
    expect(accept.status).toBe(409);
    const me = await api<{ org_id: string }>('GET', '/auth/me', { token: outsider.token });
    expect(me.body.org_id).toBe(outsider.orgId);
  });

  it('removes a member, whose token then answers 401', async () => {
    const invite = await api('POST', '/org/invites', {
      token: owner.token,
      body: { email: 'temp@example.com', role: 'member' },
    });
    expect(invite.status).toBe(201);
    const temp = await signIn(api, 'temp@example.com');
    expect(
      (await api('DELETE', `/org/members/${temp.userId}`, { token: owner.token })).status,
    ).toBe(204);
    expect((await api('GET', '/auth/me', { token: temp.token })).status).toBe(401);
  });

  describe('API keys', () => {
    it('returns the plaintext once, never a hash, and authenticates both header forms with the member role', async () => {
      const created = await api<{ key_id: string; key: string; prefix: string }>(
        'POST',
        '/org/api-keys',
        {
          token: owner.token,
          body: { name: 'ci' },
        },
      );
      expect(created.status).toBe(201);
      expect(created.body.key).toMatch(new RegExp(`^rlk_${created.body.key_id}_`));
      expect(created.text).not.toMatch(/hash/i);

      const listed = await api<{ keys: Array<{ key_id: string }> }>('GET', '/org/api-keys', {
        token: owner.token,
      });
      expect(listed.body.keys.map((k) => k.key_id)).toContain(created.body.key_id);
      // The secret is base64url, which may itself hold `_`: it is what follows the key id.
      const secret = created.body.key.slice(`rlk_${created.body.key_id}_`.length);
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(listed.text).not.toContain(secret);
      expect(listed.text).not.toMatch(/hash|"key":/i);

      const viaBearer = await api<{ kind: string; role: string; org_id: string }>(
        'GET',
        '/auth/me',
        { token: created.body.key },
      );
      expect(viaBearer.status).toBe(200);
      expect(viaBearer.body).toMatchObject({
        kind: 'api_key',
        role: 'member',
        org_id: owner.orgId,
      });
      expect(viaBearer.text).not.toContain(secret);
      const viaHeader = await api('GET', '/projects', {
        headers: { 'x-api-key': created.body.key },
      });
      expect(viaHeader.status).toBe(200);
    });

    it('forbids an API key on owner-only routes with 403', async () => {
      const created = await api<{ key: string }>('POST', '/org/api-keys', {
        token: owner.token,
        body: { name: 'bot' },
      });
      for (const [method, path] of [
        ['GET', '/org/api-keys'],
        ['GET', '/org/invites'],
      ] as const) {
        expect((await api(method, path, { token: created.body.key })).status).toBe(403);
      }
      const made = await api('POST', '/org/api-keys', {
        token: created.body.key,
        body: { name: 'escalate' },
      });
      expect(made.status).toBe(403);
    });

    it('rejects a revoked key with 401 on the next call', async () => {
      const created = await api<{ key_id: string; key: string }>('POST', '/org/api-keys', {
        token: owner.token,
        body: { name: 'temp' },
      });
      expect((await api('GET', '/projects', { token: created.body.key })).status).toBe(200);
      expect(
        (await api('DELETE', `/org/api-keys/${created.body.key_id}`, { token: owner.token }))
          .status,
      ).toBe(204);
      expect((await api('GET', '/projects', { token: created.body.key })).status).toBe(401);
      const listed = await api<{ keys: Array<{ key_id: string; revoked_at: string | null }> }>(
        'GET',
        '/org/api-keys',
        {
          token: owner.token,
        },
      );
      expect(
        listed.body.keys.find((k) => k.key_id === created.body.key_id)?.revoked_at,
      ).not.toBeNull();
    });

    it('rejects a key with a wrong secret with 401', async () => {
      const created = await api<{ key: string }>('POST', '/org/api-keys', {
        token: owner.token,
        body: { name: 'x' },
      });
      const wrong = created.body.key.slice(0, -2) + (created.body.key.endsWith('AA') ? 'BB' : 'AA');
      expect((await api('GET', '/projects', { token: wrong })).status).toBe(401);
      expect((await api('GET', '/projects', { headers: { 'x-api-key': 'rlk_nope' } })).status).toBe(
        401,
      );
    });
  });
});
