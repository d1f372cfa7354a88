import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/auth.js';
import { apiClient } from '../helpers/openapi.js';
import { approvedRun, mint, newProject } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildCli, CLI, json, ptyAvailable, runNode, runPty } from './run-cli.js';

const RECEIPTS = 3;
const PROJECTS = 5;
const ESC = '\u001b';

describe('CLI output: for scripts off a terminal, for people on one', () => {
  let server: TestServer;
  let home: string;
  let env: Record<string, string>;
  let hasPty = false;
  const cli = (...args: string[]) => runNode(CLI, args, env);

  beforeAll(async () => {
    await buildCli();
    hasPty = await ptyAvailable();
    server = await startTestServer();
    home = await mkdtemp(join(tmpdir(), 'runledger-cli-out-'));
    const { api } = await apiClient(server.url);
    const { token } = await signIn(api, 'ada@example.com');
    env = { RUNLEDGER_URL: server.url, RUNLEDGER_TOKEN: token };
    const project = await newProject(api, token, 'P0');
    for (let i = 1; i < PROJECTS; i += 1) await newProject(api, token, `P${i}`);
    for (let i = 0; i < RECEIPTS; i += 1)
      await mint(api, token, await approvedRun(api, token, project));
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('--json keeps the whole answer, --json a,b only those fields, and an unknown field exits 2', async () => {
    const whole = json<{
      projects: Array<{ id: string; name: string; created_at: string }>;
      next: null;
    }>(await cli('projects', 'list', '--json'));
    expect(whole.projects).toHaveLength(PROJECTS);
    expect(whole.next).toBeNull();
    const picked = json<unknown[]>(await cli('projects', 'list', '--json', 'name,id'));
    expect(picked).toEqual(whole.projects.map((p) => ({ name: p.name, id: p.id })));
    const one = await cli('whoami', '--json', 'email');
    expect(JSON.parse(one.stdout)).toEqual({ email: 'ada@example.com' });
    const eq = await cli('whoami', '--json=email,role');
    expect(JSON.parse(eq.stdout)).toEqual({ email: 'ada@example.com', role: 'owner' });

    const unknown = await cli('runs', 'list', '--json', 'id,colour');
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(
      /^runledger: unknown JSON field "colour"; available: id, .*state/,
    );
    expect(unknown.stderr).toContain('(see runledger runs list --help)');
  });

  it('off a terminal: tab-separated rows, no header, no colour, and the next-page hint on stderr', async () => {
    const page = await cli('projects', 'list', '--limit', '2');
    expect(page.code).toBe(0);
    const rows = page.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatch(/^prj_\S+\tP\d\t\S+$/);
    expect(page.stdout).not.toContain('\u001b[');
    expect(page.stderr).toMatch(/^\(more: --after \S+, or --all\)\n$/);

    const shown = await cli('whoami');
    expect(shown.stdout).toMatch(/^email:\tada@example\.com\nid:\t/);
  });

  it('--all (or --paginate) follows the server’s cursors to the end', async () => {
    const all = await cli('projects', 'list', '--limit', '2', '--all');
    expect(all.code).toBe(0);
    expect(all.stderr).toBe('');
    const names = all.stdout
      .trimEnd()
      .split('\n')
      .map((row) => row.split('\t')[1]);
    expect(names.sort()).toEqual(['P0', 'P1', 'P2', 'P3', 'P4']);
    const paged = json<{ entries: Array<{ org_seq: number }>; next: null }>(
      await cli('ledger', 'list', '--limit', '1', '--paginate', '--json'),
    );
    expect(paged.entries.map((e) => Number(e.org_seq))).toEqual([0, 1, 2]);
    expect(paged.next).toBeNull();
    const recent = json<Array<{ org_seq: number }>>(
      await cli('receipts', 'recent', '--limit', '2', '--all', '--json', 'org_seq'),
    );
    expect(recent.map((r) => Number(r.org_seq))).toEqual([2, 1, 0]);
  });

  it('ledger export writes NDJSON to stdout without --out, the same bytes as with --out, and no bar off a terminal', async () => {
    const file = join(home, 'ledger.ndjson');
    const toFile = await cli('ledger', 'export', '--out', file);
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(toFile.stderr).not.toContain('exporting');
    const toStdout = await cli('ledger', 'export');
    expect(toStdout.code).toBe(0);
    expect(toStdout.stderr).toBe('');
    const saved = await readFile(file, 'utf8');
    const strip = (text: string) => text.replace(/"exported_at":"[^"]+"/, '');
    expect(strip(toStdout.stdout)).toBe(strip(saved));
    const lines = toStdout.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(RECEIPTS + 1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ count: RECEIPTS });
  });

  it('on a terminal: an aligned table with a bold header, colour unless NO_COLOR, and a progress bar for export', async (context) => {
    if (!hasPty) context.skip('util-linux `script` cannot open a pseudo-terminal here');
    const table = await runPty(['projects', 'list'], env);
    expect(table.code).toBe(0);
    const [header, ...rows] = table.output.trimEnd().split('\n');
    expect(header).toMatch(new RegExp(`^${ESC}\\[1mID +NAME +CREATED${ESC}\\[0m$`));
    expect(rows).toHaveLength(PROJECTS);
    for (const row of rows) expect(row).toMatch(/^prj_\S+ {2}P\d +\S+$/);
    const plain = await runPty(['projects', 'list', '--limit', '2'], { ...env, NO_COLOR: '1' });
    expect(plain.output).not.toContain('\u001b[');
    expect(plain.output).toMatch(/^ID +NAME +CREATED\n/);
    expect(plain.output).toMatch(/\(more: --after \S+, or --all\)\n$/);

    const failed = await runPty(['runs', 'list', '--state', 'bogus'], env);
    expect(failed.code).toBe(2);
    expect(failed.output).toMatch(new RegExp(`^${ESC}\\[31mrunledger:${ESC}\\[0m --state: `));
    const failedPlain = await runPty(['runs', 'list', '--state', 'bogus'], {
      ...env,
      NO_COLOR: '1',
    });
    expect(failedPlain.output).toMatch(/^runledger: --state: /);

    const file = join(home, 'pty.ndjson');
    const exported = await runPty(['ledger', 'export', '--out', file], env);
    expect(exported.code).toBe(0);
    expect(exported.output).toMatch(
      new RegExp(`\\rexporting \\[#{24}\\] 100% ${RECEIPTS}/${RECEIPTS} receipts, \\d+/s`),
    );
    expect(exported.output).toContain(`wrote `);
    // On the terminal the export itself is printed: no bar drawn over it.
    const printed = await runPty(['ledger', 'export'], env);
    expect(printed.output).not.toContain('exporting [');
    expect(printed.output.trimEnd().split('\n')).toHaveLength(RECEIPTS + 1);
  });
});
