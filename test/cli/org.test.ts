import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/openapi.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { orgWithRoles } from '../helpers/tribunal.js';
import { buildCli, CLI, json, runNode, type Ran } from './run-cli.js';

describe('runledger org show and org set', () => {
  let server: TestServer;
  let home: string;
  let owner: Record<string, string>;
  let member: Record<string, string>;
  let audited: () => Promise<string[]>;
  const cli = (env: Record<string, string>, ...args: string[]): Promise<Ran> =>
    runNode(CLI, args, env);

  beforeAll(async () => {
    await buildCli();
    server = await startTestServer();
    home = await mkdtemp(join(tmpdir(), 'runledger-cli-org-'));
    const { api } = await apiClient(server.url);
    const roles = await orgWithRoles(api, 'cli-org');
    const env = (token: string, name: string) => ({
      RUNLEDGER_CONFIG: join(home, `${name}.json`),
      RUNLEDGER_URL: server.url,
      RUNLEDGER_TOKEN: token,
    });
    owner = env(roles.owner.token, 'owner');
    member = env(roles.member.token, 'member');
    audited = async () => {
      const list = await api<{ entries: Array<{ event_type: string }> }>(
        'GET',
        '/org/audit?type=org.share_identity_changed',
        { token: roles.owner.token },
      );
      return list.body.entries.map((e) => e.event_type);
    };
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('shows the organization with its share identity, e-mail by default', async () => {
    const shown = await cli(member, 'org', 'show');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^share identity:\temail$/m);
    expect(json(await cli(member, 'org', 'show', '--json', 'share_identity'))).toEqual({
      share_identity: 'email',
    });
  });

  it('refuses an unknown value locally with exit 2, listing the choices, before any request', async () => {
    const bad = await cli(owner, 'org', 'set', '--share-identity', 'name');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"email", "id"|email.*id/);
    const missing = await cli(owner, 'org', 'set');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/share-identity/);
    expect(await audited()).toEqual([]);
  });

  it('lets a member change nothing (exit 1) and the owner switch to ids, audited', async () => {
    const byMember = await cli(member, 'org', 'set', '--share-identity', 'id');
    expect(byMember.code).toBe(1);
    expect(byMember.stderr).toMatch(/owner/);
    expect(await audited()).toEqual([]);
    const set = json<{ share_identity: string }>(
      await cli(owner, 'org', 'set', '--share-identity', 'id', '--json'),
    );
    expect(set.share_identity).toBe('id');
    expect(json(await cli(member, 'org', 'show', '--json', 'share_identity'))).toEqual({
      share_identity: 'id',
    });
    expect(await audited()).toEqual(['org.share_identity_changed']);
  });
});
