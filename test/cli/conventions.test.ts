import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildCli, CLI, json, runNode } from './run-cli.js';

const { version } = JSON.parse(
  await readFile(new URL('../../cli/package.json', import.meta.url), 'utf8'),
) as { version: string };

/** Sources `script` in a real bash with `runledger` bound to the built CLI, then completes `line`. */
function bashComplete(script: string, words: readonly string[]): Promise<string[]> {
  const program = [
    `runledger() { ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"; }`,
    script,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_runledger_completions',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-c', program], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out.split('\n').filter(Boolean)) : reject(new Error(err)),
    );
  });
}

describe('the CLI follows the conventions of gh and similar tools', () => {
  let server: TestServer;
  let home: string;
  const cli = (args: string[], env: Record<string, string> = {}) => runNode(CLI, args, env);

  beforeAll(async () => {
    await buildCli();
    server = await startTestServer();
    home = await mkdtemp(join(tmpdir(), 'runledger-cli-conv-'));
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('prints its version, and help for -h, --help and `help <command>` with examples', async () => {
    const shown = await cli(['--version']);
    expect(shown).toMatchObject({ code: 0, stdout: `runledger ${version}\n`, stderr: '' });

    const short = await cli(['-h']);
    expect(short.code).toBe(0);
    expect(short.stdout).toContain('runledger <command> [options]');
    expect(short.stdout).toContain(
      'Exit codes: 0 ok, 1 refused or failed, 2 bad usage, 4 sign-in needed',
    );

    const viaHelp = await cli(['help', 'runs', 'list']);
    const viaFlag = await cli(['runs', 'list', '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaHelp.stdout).toMatch(/^runledger runs list\n/);
    expect(viaHelp.stdout).toContain('Examples:');
    expect(viaHelp.stdout).toContain('runledger runs list --all --json id,state');
    expect(viaHelp.stdout).toContain('--all, --paginate');
    const nothing = await cli(['help', 'runs', 'shw']);
    expect(nothing).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'runledger: "runledger runs" has no command "shw"\n(see runledger runs --help)\n',
    });
  });

  it('suggests the command meant, and points every usage error to that command’s own help', async () => {
    const typo = await cli(['runs', 'lst']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'runledger: unknown command "lst" for "runledger runs"; did you mean "list"?\n(see runledger runs --help)\n',
    );
    const top = await cli(['projcts', 'list']);
    expect(top.code).toBe(2);
    expect(top.stderr).toContain('did you mean "projects"?');
    expect(top.stderr).toContain('(see runledger --help)');

    // Caught by yargs before the handler, and by the handler itself: both name the subcommand.
    const missing = await cli(['runs', 'show']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/\(see runledger runs show --help\)\n$/);
    const both = await cli(['runs', 'grade', 'run_x', 'chk_x', '--pass', '--flag']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/\(see runledger runs grade --help\)\n$/);
    const badJson = await cli(
      [
        'router',
        'jobs',
        'create',
        '--member',
        'm',
        '--node-class',
        'gpu_a_96gb',
        '--hours',
        '1',
        '--input',
        '{',
      ],
      {
        RUNLEDGER_ROUTER_URL: server.routerUrl,
      },
    );
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toBe(
      'runledger: --input is not valid JSON\n(see runledger router jobs create --help)\n',
    );
  });

  it('checks every enum flag locally, listing the allowed values, without a request', async () => {
    // Port 9 refuses connections: a request would exit 1 with "cannot reach", not 2.
    const nowhere = {
      RUNLEDGER_URL: 'http://127.0.0.1:9',
      RUNLEDGER_TOKEN: 't',
      RUNLEDGER_ROUTER_URL: 'http://127.0.0.1:9',
    };
    const cases: Array<[string[], string]> = [
      [
        ['runs', 'list', '--state', 'bogus'],
        '--state: "bogus" is not one of the allowed values: draft, audited, finalized, approved, rejected, escalated, receipted',
      ],
      [
        ['runs', 'approve', 'run_x', '--decision', 'maybe'],
        '--decision: "maybe" is not one of the allowed values: approved, rejected, escalated',
      ],
      [
        ['runs', 'evidence', 'add', 'run_x', '--label', 'l', '--kind', 'pdf', '--content', 'c'],
        '--kind: "pdf" is not one of the allowed values: note, text, url, log, json',
      ],
      [
        ['router', 'jobs', 'create', '--member', 'm', '--node-class', 'gpu_z', '--hours', '1'],
        '--node-class: "gpu_z" is not one of the allowed values: gpu_a_96gb, gpu_b_32gb',
      ],
      [
        [
          'router',
          'jobs',
          'create',
          '--member',
          'm',
          '--node-class',
          'gpu_a_96gb',
          '--hours',
          '1',
          '--type',
          'train',
        ],
        '--type: "train" is not one of the allowed values: inference, fine_tune, eval, dataset_build, embedding, batch',
      ],
      [
        ['router', 'worker', '--node-class', 'cpu'],
        '--node-class: "cpu" is not one of the allowed values: gpu_a_96gb, gpu_b_32gb',
      ],
      [['completion', 'ksh'], 'shell: "ksh" is not one of the allowed values: bash, zsh, fish'],
    ];
    for (const [args, message] of cases) {
      const ran = await cli(args, nowhere);
      expect(ran.code, args.join(' ')).toBe(2);
      expect(ran.stderr.split('\n')[0]).toBe(`runledger: ${message}`);
      expect(ran.stderr).not.toContain('cannot reach');
    }
  });

  it('completes commands and flags in a real bash, and prints zsh and fish scripts', async () => {
    const bash = await cli(['completion', 'bash']);
    expect(bash.code).toBe(0);
    expect(await bashComplete(bash.stdout, ['runledger', 'ru'])).toEqual(['runs']);
    expect(await bashComplete(bash.stdout, ['runledger', 'runs', 'li'])).toEqual(['list']);
    expect(await bashComplete(bash.stdout, ['runledger', 'runs', 'list', '--st'])).toEqual([
      '--state',
    ]);
    expect(
      await bashComplete(bash.stdout, ['runledger', 'runs', 'list', '--state', 'rec']),
    ).toEqual(['receipted']);

    const zsh = await cli(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/^#compdef runledger\n/);
    expect(zsh.stdout).toContain('compdef _runledger_completions runledger');
    const fish = await cli(['completion', 'fish']);
    expect(fish.stdout).toContain("complete -c runledger -f -a '(__runledger_completions)'");
    expect(fish.stdout).toContain('env SHELL=fish runledger --get-yargs-completions');
    // What those scripts receive: descriptions after a tab for fish, after a colon for zsh.
    const forFish = await cli(['--get-yargs-completions', 'ledger', ''], { SHELL: 'fish' });
    expect(forFish.stdout.split('\n')).toContain(
      'export\tdownload the ledger as NDJSON for offline verification (to stdout without --out)',
    );
    const forZsh = await cli(['--get-yargs-completions', 'ledger', ''], { SHELL: 'zsh' });
    expect(forZsh.stdout.split('\n')).toContain(
      'verify:have the server re-check the whole chain (exit 1 when it does not verify)',
    );
  });

  it('reports sign-in with auth status, signs out with logout, and exits 4 when sign-in is needed', async () => {
    const env = { RUNLEDGER_URL: server.url, RUNLEDGER_CONFIG: join(home, 'auth', 'config.json') };
    const before = await cli(['auth', 'status'], env);
    expect(before.code).toBe(4);
    expect(before.stdout).toMatch(/^server:\t.+\nsigned in:\tno: not signed in/);
    expect(before.stdout).toContain('credential:\tnone');

    expect((await cli(['login', '--email', 'ada@example.com'], env)).code).toBe(0);
    const status = json<{
      signed_in: boolean;
      source: string;
      kind: string;
      user: { email: string };
    }>(await cli(['auth', 'status', '--json'], env));
    expect(status).toMatchObject({
      signed_in: true,
      source: env.RUNLEDGER_CONFIG,
      kind: 'jwt',
      user: { email: 'ada@example.com' },
    });
    const text = await cli(['auth', 'status'], env);
    expect(text.stdout).toContain('signed in:\tyes, as ada@example.com (owner of ');
    expect(text.stdout).toContain(`credential:\tsign-in token from ${env.RUNLEDGER_CONFIG}`);
    const stored = await readFile(env.RUNLEDGER_CONFIG, 'utf8');
    const token = (JSON.parse(stored) as { credential: { value: string } }).credential.value;
    expect(text.stdout + text.stderr).not.toContain(token);

    const refused = await cli(['auth', 'status'], { ...env, RUNLEDGER_TOKEN: 'expired' });
    expect(refused.code).toBe(4);
    expect(refused.stdout).toContain('credential:\ttoken from RUNLEDGER_TOKEN');

    const out = await cli(['logout'], env);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(
      `signed out of ${server.url}: removed the token from ${env.RUNLEDGER_CONFIG}\n`,
    );
    expect(JSON.parse(await readFile(env.RUNLEDGER_CONFIG, 'utf8'))).toEqual({
      base_url: server.url,
    });
    const after = await cli(['whoami'], env);
    expect(after.code).toBe(4);
    expect(after.stderr).toContain('not signed in');
    const again = await cli(['auth', 'logout'], env);
    expect(again).toMatchObject({
      code: 0,
      stdout: `no stored credential in ${env.RUNLEDGER_CONFIG}\n`,
    });
    const withEnv = await cli(['logout'], { ...env, RUNLEDGER_TOKEN: 'x' });
    expect(withEnv.stderr).toContain('RUNLEDGER_TOKEN is still set');
  });
});
