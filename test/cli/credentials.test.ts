import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildCli, CLI, json, runNode } from './run-cli.js';

describe('the stored credential goes only to the server it was stored for', () => {
  let server: TestServer;
  let home: string;
  let env: Record<string, string>;
  /** Another server, which records the authorization header of every request and refuses it. */
  let stranger: Server;
  let strangerUrl: string;
  const seen: Array<string | undefined> = [];

  beforeAll(async () => {
    await buildCli();
    server = await startTestServer();
    home = await mkdtemp(join(tmpdir(), 'runledger-cli-cred-'));
    env = { RUNLEDGER_CONFIG: join(home, 'config.json') };
    stranger = createServer((request, response) => {
      seen.push(request.headers.authorization);
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ detail: 'who are you' }));
    });
    await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
    strangerUrl = `http://127.0.0.1:${(stranger.address() as AddressInfo).port}`;

    const login = await runNode(CLI, ['login', '--email', 'ada@example.com', '--json'], {
      ...env,
      RUNLEDGER_URL: server.url,
    });
    expect(login.code, login.stderr).toBe(0);
  }, 180_000);
  afterAll(async () => {
    await new Promise((resolve) => stranger?.close(resolve));
    await server?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('refuses to send it to another --base-url or RUNLEDGER_URL, and says how to sign in there', async () => {
    const expected = `runledger: no credential for ${strangerUrl}: run \`runledger login --base-url ${strangerUrl}\`, or set RUNLEDGER_TOKEN\n`;
    const byFlag = await runNode(CLI, ['whoami', '--base-url', strangerUrl], env);
    expect(byFlag.code).toBe(4);
    expect(byFlag.stderr).toBe(expected);
    const byEnv = await runNode(CLI, ['projects', 'list'], { ...env, RUNLEDGER_URL: strangerUrl });
    expect(byEnv.code).toBe(4);
    expect(byEnv.stderr).toBe(expected);
    expect(seen).toEqual([]);
  });

  it('still uses it when the address differs only by trailing slashes', async () => {
    const me = json<{ email: string }>(
      await runNode(CLI, ['whoami', '--json', '--base-url', `${server.url}//`], env),
    );
    expect(me.email).toBe('ada@example.com');
  });

  it('sends RUNLEDGER_TOKEN to any server, since the user named it explicitly', async () => {
    const before = seen.length;
    const ran = await runNode(CLI, ['whoami'], {
      ...env,
      RUNLEDGER_URL: strangerUrl,
      RUNLEDGER_TOKEN: 'explicit-token',
    });
    expect(ran.code).toBe(4);
    expect(ran.stderr).toBe('runledger: who are you (HTTP 401)\n');
    expect(seen.slice(before)).toEqual(['Bearer explicit-token']);
  });
});
