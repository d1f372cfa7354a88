import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_REPORT, SUPPORT_REPLY } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildCli, CLI, json, runNode, VERIFY, type Ran } from './run-cli.js';

interface Check {
  id: string;
  key: string;
  status: string;
}

describe('the runledger CLI drives a run from sign-in to a verified export', () => {
  let server: TestServer;
  let home: string;
  let env: Record<string, string>;
  const cli = (...args: string[]): Promise<Ran> => runNode(CLI, args, env);

  beforeAll(async () => {
    await buildCli();
    server = await startTestServer();
    home = await mkdtemp(join(tmpdir(), 'runledger-cli-'));
    env = { RUNLEDGER_CONFIG: join(home, 'conf', 'config.json'), RUNLEDGER_URL: server.url };
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('signs in through the dev link and keeps the JWT in a 0600 config file', async () => {
    const login = await cli('login', '--email', 'ada@example.com');
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain('signed in as ada@example.com');
    const file = env.RUNLEDGER_CONFIG as string;
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(file, 'utf8')) as {
      credential: { kind: string; value: string };
    };
    expect(stored.credential.kind).toBe('jwt');
    expect(stored.credential.value.split('.')).toHaveLength(3);
    const me = json<{ email: string; role: string }>(await cli('whoami', '--json'));
    expect(me).toMatchObject({ email: 'ada@example.com', role: 'owner' });
  });

  let exportFile: string;
  let receiptIds: string[];

  it('creates, evidences, audits, grades, approves and mints two runs, then exports the ledger', async () => {
    const project = json<{ id: string }>(await cli('projects', 'create', 'Reports', '--json'));
    const listed = await cli('projects', 'list');
    expect(listed.stdout).toMatch(new RegExp(`${project.id}\\s+Reports`));

    // An all-auto sheet: evidence as text and as an uploaded file, then straight to a verdict.
    const run = json<{ id: string; state: string }>(
      await cli(
        'runs',
        'create',
        '--project',
        project.id,
        '--sheet',
        'agent-task-report',
        '--title',
        'nightly',
        '--json',
      ),
    );
    expect(run.state).toBe('draft');
    const log = json<{ kind: string; size: number }>(
      await cli(
        'runs',
        'evidence',
        'add',
        run.id,
        '--kind',
        'log',
        '--label',
        'agent log',
        '--content',
        'step 1 ok\n',
        '--json',
      ),
    );
    expect(log).toMatchObject({ kind: 'log', size: 10 });
    const csv = join(home, 'incidents.csv');
    const csvBytes = 'id,severity\n1,low\n2,high\n'.repeat(120_000); // 3 MB: many chunks
    await writeFile(csv, csvBytes);
    const file = json<{ kind: string; size: number; filename: string; sha256: string }>(
      await cli(
        'runs',
        'evidence',
        'add',
        run.id,
        '--label',
        'source data',
        '--file',
        csv,
        '--json',
      ),
    );
    expect(file).toMatchObject({ kind: 'file', size: csvBytes.length, filename: 'incidents.csv' });
    const { createHash } = await import('node:crypto');
    expect(file.sha256).toBe(createHash('sha256').update(csvBytes).digest('hex'));

    const report = join(home, 'report.json');
    await writeFile(report, JSON.stringify(AGENT_REPORT));
    expect((await cli('runs', 'submit', run.id, report)).code).toBe(0);
    const audit = json<{ needs_grading: boolean; verdict: { outcome: string } }>(
      await cli('runs', 'audit', run.id, '--json'),
    );
    expect(audit).toMatchObject({ needs_grading: false, verdict: { outcome: 'pass' } });
    const approved = await cli('runs', 'approve', run.id, '--decision', 'approved', '--note', 'ok');
    expect(approved.stdout).toMatch(/decision:\s+approved/);
    const first = json<{ receipt_id: string; org_seq: number }>(
      await cli('runs', 'receipt', run.id, '--json'),
    );
    expect(first.org_seq).toBe(0);

    // A sheet with checklist rules: grade each open check by its key, then finalize.
    const second = json<{ id: string }>(
      await cli(
        'runs',
        'create',
        '--project',
        project.id,
        '--sheet',
        'support-reply',
        '--title',
        'ticket T-1042',
        '--json',
      ),
    );
    await cli(
      'runs',
      'evidence',
      'add',
      second.id,
      '--kind',
      'text',
      '--label',
      'conversation',
      '--content',
      'How do I export?',
    );
    const reply = join(home, 'reply.json');
    await writeFile(reply, JSON.stringify(SUPPORT_REPLY));
    await cli('runs', 'submit', second.id, reply);
    const graded = json<{ needs_grading: boolean; checks: Check[] }>(
      await cli('runs', 'audit', second.id, '--json'),
    );
    expect(graded.needs_grading).toBe(true);
    const open = graded.checks.filter((c) => c.status === 'open');
    expect(open.length).toBeGreaterThan(0);
    for (const check of open) {
      const flag = check.key === 'tone_fits';
      const out = json<Check>(
        await cli('runs', 'grade', second.id, check.key, flag ? '--flag' : '--pass', '--json'),
      );
      expect(out).toMatchObject({ id: check.id, status: flag ? 'flag' : 'pass' });
    }
    const verdict = json<{ counts: { open: number; flag: number } }>(
      await cli('runs', 'findings', second.id, '--json'),
    );
    expect(verdict.counts).toMatchObject({ open: 0, flag: 1 });
    expect((await cli('runs', 'approve', second.id, '--decision', 'approved')).code).toBe(0);
    const minted = json<{ receipt_id: string; parent_hash: string; org_seq: number }>(
      await cli('runs', 'receipt', second.id, '--json'),
    );
    expect(minted.org_seq).toBe(1);

    const shown = json<{ run: { state: string }; receipt: { receipt_id: string } }>(
      await cli('runs', 'show', second.id, '--json'),
    );
    expect(shown).toMatchObject({
      run: { state: 'receipted' },
      receipt: { receipt_id: minted.receipt_id },
    });
    const recent = json<{ receipts: Array<{ receipt_id: string }> }>(
      await cli('receipts', 'recent', '--json'),
    );
    expect(recent.receipts.map((r) => r.receipt_id)).toEqual([minted.receipt_id, first.receipt_id]);
    const ledger = json<{ entries: Array<{ receipt_id: string }> }>(
      await cli('ledger', 'list', '--json'),
    );
    receiptIds = ledger.entries.map((e) => e.receipt_id);
    expect(receiptIds).toEqual([first.receipt_id, minted.receipt_id]);
    const verified = await cli('ledger', 'verify');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('OK: 2 receipts verified');

    exportFile = join(home, 'ledger.ndjson');
    const exported = await cli('ledger', 'export', '--out', exportFile);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = (await readFile(exportFile, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
  }, 120_000);

  it('runledger-verify accepts the export as it came from the CLI', async () => {
    const ok = await runNode(VERIFY, [exportFile]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain('2 receipts checked');
  });

  it('runledger-verify exits 1 and names the receipt when one byte of a payload changes', async () => {
    const text = await readFile(exportFile, 'utf8');
    const lines = text.split('\n');
    const target = lines[2] as string;
    const at = target.indexOf('ticket T-1042');
    expect(at).toBeGreaterThan(target.indexOf('"payload"'));
    lines[2] = `${target.slice(0, at)}T${target.slice(at + 1)}`; // "ticket" → "Ticket"
    const tampered = join(home, 'tampered.ndjson');
    await writeFile(tampered, lines.join('\n'));
    const bad = await runNode(VERIFY, [tampered]);
    expect(bad.code).toBe(1);
    expect(bad.stdout + bad.stderr).toContain(receiptIds[1]);
    const asJson = await runNode(VERIFY, ['--json', tampered]);
    const result = JSON.parse(asJson.stdout) as {
      ok: boolean;
      errors: Array<{ receipt_id: string; code: string }>;
    };
    expect(result.ok).toBe(false);
    expect(
      result.errors.some((e) => e.receipt_id === receiptIds[1] && e.code === 'hash_mismatch'),
    ).toBe(true);
  });

  it('runledger-verify exits 2 with a clear message on a truncated export', async () => {
    const text = await readFile(exportFile, 'utf8');
    const truncated = join(home, 'truncated.ndjson');
    await writeFile(truncated, text.slice(0, text.length - 40));
    const cut = await runNode(VERIFY, [truncated]);
    expect(cut.code).toBe(2);
    expect(cut.stderr).toMatch(/truncated/);
  });
});
