import { formatSkey } from '@runledger/verify/note';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Mailer, MailMessage } from '@runledger/core/ports';
import { loadConfig, startServer } from '@runledger/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/auth.js';
import { apiClient } from '../helpers/openapi.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildCli, CLI, json, runNode } from './run-cli.js';

describe('the CLI reports failures honestly and keeps credentials private', () => {
  let server: TestServer;
  let home: string;
  let jwt: string;
  let apiKey: string;

  beforeAll(async () => {
    await buildCli();
    server = await startTestServer();
    home = await mkdtemp(join(tmpdir(), 'runledger-cli-errors-'));
    const { api } = await apiClient(server.url);
    jwt = (await signIn(api, 'ada@example.com')).token;
    const key = await api<{ key: string }>('POST', '/org/api-keys', {
      token: jwt,
      body: { name: 'ci' },
    });
    apiKey = key.body.key;
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await rm(home, { recursive: true, force: true });
  });

  const withToken = () => ({ RUNLEDGER_URL: server.url, RUNLEDGER_TOKEN: jwt });

  it("prints the server's detail on stderr and exits 1 when a request is refused", async () => {
    const project = json<{ id: string }>(
      await runNode(CLI, ['projects', 'create', 'P', '--json'], withToken()),
    );
    const run = json<{ id: string }>(
      await runNode(
        CLI,
        [
          'runs',
          'create',
          '--project',
          project.id,
          '--sheet',
          'agent-task-report',
          '--title',
          't',
          '--json',
        ],
        withToken(),
      ),
    );
    const early = await runNode(
      CLI,
      ['runs', 'approve', run.id, '--decision', 'approved'],
      withToken(),
    );
    expect(early.code).toBe(1);
    expect(early.stderr).toBe('runledger: the run has not been audited (HTTP 409)\n');
    expect(early.stdout).toBe('');

    const missing = await runNode(CLI, ['runs', 'show', 'run_doesnotexist', '--json'], withToken());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^runledger: .+ \(HTTP 404\)\n$/);
    expect(missing.stdout).toBe('');
  });

  it('exits 4 (sign-in needed) when the token is refused or missing, 1 when the server is unreachable', async () => {
    const refused = await runNode(CLI, ['whoami'], {
      RUNLEDGER_URL: server.url,
      RUNLEDGER_TOKEN: 'nope',
    });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/\(HTTP 401\)/);

    const config = join(home, 'empty', 'config.json');
    const none = await runNode(CLI, ['projects', 'list'], {
      RUNLEDGER_URL: server.url,
      RUNLEDGER_CONFIG: config,
    });
    expect(none.code).toBe(4);
    expect(none.stderr).toContain('not signed in');

    const down = await runNode(CLI, ['whoami', '--base-url', 'http://127.0.0.1:9'], withToken());
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('cannot reach http://127.0.0.1:9');
  });

  it('exits 2 on bad usage and on unreadable local files', async () => {
    const unknown = await runNode(CLI, ['projects', 'delete'], withToken());
    expect(unknown.code).toBe(2);
    const both = await runNode(
      CLI,
      ['runs', 'grade', 'run_x', 'chk_x', '--pass', '--flag'],
      withToken(),
    );
    expect(both.code).toBe(2);
    const noFile = await runNode(
      CLI,
      ['runs', 'submit', 'run_x', join(home, 'absent.json')],
      withToken(),
    );
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('absent.json');
  });

  it('stores an API key after checking it, under XDG_CONFIG_HOME with mode 0600', async () => {
    const xdg = join(home, 'xdg');
    const env = { RUNLEDGER_URL: server.url, XDG_CONFIG_HOME: xdg };
    const bad = await runNode(CLI, ['login', '--api-key', '-'], env, 'rlk_wrong\n');
    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(/\(HTTP 401\)\n$/);
    await expect(stat(join(xdg, 'runledger', 'config.json'))).rejects.toThrow();

    const good = await runNode(CLI, ['login'], { ...env, RUNLEDGER_API_KEY: apiKey });
    expect(good.code, good.stderr).toBe(0);
    expect(good.stderr).toBe('');
    const file = join(xdg, 'runledger', 'config.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      base_url: server.url,
      credential: { kind: 'api_key', value: apiKey },
    });
    // The stored base URL is used when no flag or variable names one.
    const me = json<{ kind: string }>(
      await runNode(CLI, ['whoami', '--json'], { XDG_CONFIG_HOME: xdg }),
    );
    expect(me.kind).toBe('api_key');
    // RUNLEDGER_TOKEN wins over the stored key.
    const overridden = json<{ kind: string }>(
      await runNode(CLI, ['whoami', '--json'], { XDG_CONFIG_HOME: xdg, RUNLEDGER_TOKEN: jwt }),
    );
    expect(overridden.kind).toBe('user');
  });

  it('reads the API key from stdin and warns when it is given on the command line', async () => {
    const stored = async (config: string) =>
      (JSON.parse(await readFile(config, 'utf8')) as { credential: { value: string } }).credential
        .value;
    const fromStdin = {
      RUNLEDGER_URL: server.url,
      RUNLEDGER_CONFIG: join(home, 'stdin', 'config.json'),
    };
    const bare = await runNode(CLI, ['login', '--api-key', '--json'], fromStdin, `${apiKey}\n`);
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stderr).toBe('');
    expect(await stored(fromStdin.RUNLEDGER_CONFIG)).toBe(apiKey);

    const empty = await runNode(CLI, ['login', '--api-key', '-'], fromStdin, '');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--api-key: nothing on stdin');

    const literal = {
      RUNLEDGER_URL: server.url,
      RUNLEDGER_CONFIG: join(home, 'literal', 'config.json'),
    };
    const flagged = await runNode(CLI, ['login', '--api-key', apiKey], literal);
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(flagged.stderr).toMatch(
      /^runledger: warning: --api-key with a value is visible in the process list[^\n]*\n$/,
    );
    expect(await stored(literal.RUNLEDGER_CONFIG)).toBe(apiKey);

    const neither = await runNode(CLI, ['login'], { RUNLEDGER_URL: server.url });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('give --email, or --api-key, or set RUNLEDGER_API_KEY');
  });

  it('asks for the link on stdin when the server mails it instead of returning it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'runledger-cli-mail-'));
    const sent: MailMessage[] = [];
    const mailer: Mailer = { configured: true, send: async (message) => void sent.push(message) };
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      ROUTER_PORT: '0',
      LOG_LEVEL: 'silent',
      APP_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
      SIGNING_KEY: formatSkey('runledger.test', new Uint8Array(32).fill(6)),
    });
    const mailing = await startServer(config, { mailer });
    try {
      const env = {
        RUNLEDGER_URL: mailing.url,
        RUNLEDGER_CONFIG: join(home, 'prod', 'config.json'),
      };
      const noInput = await runNode(CLI, ['login', '--email', 'bo@example.com'], env);
      expect(noInput.code).toBe(2);
      expect(noInput.stderr).toContain('Paste the link');
      expect(noInput.stderr).toContain('no sign-in link or token on stdin');

      // The second request mails a fresh link; the CLI reads the pasted link from stdin.
      const pending = runNode(
        CLI,
        ['login', '--email', 'bo@example.com'],
        env,
        undefined,
        async () => {
          for (let i = 0; i < 100 && sent.length < 2; i += 1) await sleep(50);
          const link = /https?:\/\/\S+token=\S+/.exec(sent[1]?.text ?? '')?.[0];
          return `${link ?? 'no-link-mailed'}\n`;
        },
      );
      const ran = await pending;
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toContain('signed in as bo@example.com');
    } finally {
      await mailing.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
