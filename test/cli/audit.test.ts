import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/auth.js';
import { apiClient } from '../helpers/openapi.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildCli, CLI, json, runNode, VERIFY, type Ran } from './run-cli.js';

interface Entry {
  org_seq: number;
  event_type: string;
  receipt_id: string;
}

describe('runledger audit list, export and verify', () => {
  let server: TestServer;
  let home: string;
  let owner: Record<string, string>;
  let bot: Record<string, string>;
  const cli = (env: Record<string, string>, ...args: string[]): Promise<Ran> =>
    runNode(CLI, args, env);

  beforeAll(async () => {
    await buildCli();
    server = await startTestServer();
    home = await mkdtemp(join(tmpdir(), 'runledger-cli-audit-'));
    const { api } = await apiClient(server.url);
    const ada = await signIn(api, 'ada@example.com');
    const key = await api<{ key: string }>('POST', '/org/api-keys', {
      token: ada.token,
      body: { name: 'ci' },
    });
    const env = (token: string, name: string) => ({
      RUNLEDGER_CONFIG: join(home, `${name}.json`),
      RUNLEDGER_URL: server.url,
      RUNLEDGER_TOKEN: token,
    });
    owner = env(ada.token, 'owner');
    bot = env(key.body.key, 'bot');
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('lists the chain as TSV rows, as JSON fields, and filtered by type', async () => {
    const tsv = await cli(owner, 'audit', 'list');
    expect(tsv.code, tsv.stderr).toBe(0);
    const rows = tsv.stdout.trim().split('\n');
    expect(rows.map((r) => r.split('\t').slice(0, 2))).toEqual([
      ['0', 'sign_in.succeeded'],
      ['1', 'api_key.created'],
    ]);
    const fields = json<Entry[]>(await cli(owner, 'audit', 'list', '--json', 'org_seq,event_type'));
    expect(fields).toEqual([
      { org_seq: 0, event_type: 'sign_in.succeeded' },
      { org_seq: 1, event_type: 'api_key.created' },
    ]);
    const keys = json<{ entries: Entry[] }>(
      await cli(owner, 'audit', 'list', '--type', 'api_key.created', '--json'),
    );
    expect(keys.entries.map((e) => e.event_type)).toEqual(['api_key.created']);
  });

  it('refuses an unknown --type locally with exit 2, and a member credential with exit 1', async () => {
    const bad = await cli(owner, 'audit', 'list', '--type', 'api_key.stolen');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/api_key\.created/);
    const byKey = await cli(bot, 'audit', 'list');
    expect(byKey.code).toBe(1);
    expect(byKey.stderr).toMatch(/owner/);
  });

  it('prints the audit tree’s signed note, its origin ending in /audit', async () => {
    const note = await cli(owner, 'audit', 'checkpoint');
    expect(note.code, note.stderr).toBe(0);
    expect(note.stdout).toMatch(/^runledger\.test\/orgs\/org_[a-z0-9]+\/audit\n\d+\n/);
    const asJson = json<{ tree_size: number }>(await cli(owner, 'audit', 'checkpoint', '--json'));
    expect(asJson.tree_size).toBeGreaterThanOrEqual(2);
  });

  it('exports a file runledger-verify accepts, and verifies the chain itself', async () => {
    const file = join(home, 'audit.ndjson');
    const exported = await cli(owner, 'audit', 'export', '--out', file);
    expect(exported.code, exported.stderr).toBe(0);
    const checked = await runNode(VERIFY, [file]);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toContain('log audit');
    const verified = await cli(owner, 'audit', 'verify');
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/^OK: \d+ audit receipts verified/);
    const asJson = json<{ ok: boolean; receipts_checked: number }>(
      await cli(owner, 'audit', 'verify', '--json'),
    );
    expect(asJson.ok).toBe(true);
    // A byte changed in the downloaded file is named by runledger-verify.
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[1] = lines[1]!.replace('"sign_in.succeeded"', '"sign_in.Succeeded"');
    await writeFile(file, lines.join('\n'));
    const tampered = await runNode(VERIFY, [file]);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout + tampered.stderr).toMatch(/audit-000000-/);
  });
});
