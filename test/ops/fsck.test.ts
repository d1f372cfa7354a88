import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { SERVER_BIN, ptyAvailable } from '../cli/run-cli.js';
import { signIn } from '../helpers/auth.js';
import { BASE_ENV, ops, ownDatabase } from '../helpers/deployment.js';
import { apiClient } from '../helpers/openapi.js';
import { engines, type Engine } from '../helpers/postgres.js';
import { spawnServer } from '../helpers/processes.js';
import { newMember } from '../helpers/router.js';
import { approvedRun, mint, newProject, newRun } from '../helpers/runs.js';
import { openRawDb } from '../helpers/sqlite.js';

/**
 * `runledger-server fsck` over a stopped deployment of each engine: intact, it exits 0; each kind
 * of damage, made one at a time and undone after, exits 1 with a finding that names where it is.
 */
interface Finding {
  code: string;
  organization?: string;
  log?: string;
  seq?: number;
  node?: { level: number; index: number };
  file?: string;
  line?: number;
}
interface Report {
  ok: boolean;
  findings: Finding[];
  checked: Record<string, number>;
}

type Exec = (text: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** Statements straight into the deployment's database, as damage from outside would come. */
async function rawSql(
  dataDir: string,
  url: string | null,
): Promise<{ exec: Exec; close(): Promise<void> }> {
  if (url === null) {
    const db = await openRawDb(dataDir);
    return {
      exec: async (text, params) =>
        /^\s*select/i.test(text) ? db.all(text, params) : (await db.run(text, params), []),
      close: () => db.close(),
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const numbered = (text: string) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  return {
    exec: async (text, params) =>
      (await client.query<Record<string, unknown>>(numbered(text), params)).rows,
    close: () => client.end(),
  };
}

const pty = await ptyAvailable();

/** `runledger-server fsck` with a pseudo-terminal (util-linux `script`): stdout and stderr merged. */
function fsckAtTerminal(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', `${process.execPath} ${SERVER_BIN} fsck`, '/dev/null'], {
      env: { PATH: process.env.PATH, TERM: 'xterm', ...BASE_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.each(engines)('fsck (%s)', (engine: Engine) => {
  let dataDir: string;
  let env: Record<string, string>;
  let orgId: string;
  let sql: { exec: Exec; close(): Promise<void> };

  const fsck = async () => {
    const ran = await ops(['fsck', '--json'], env);
    return { code: ran.code, report: JSON.parse(ran.stdout || '{}') as Report, stderr: ran.stderr };
  };
  /** Damage, then fsck, then undo: fsck must exit 1 and name the damage. */
  const damaged = async (damage: () => Promise<() => Promise<void>>) => {
    const undo = await damage();
    try {
      const { code, report } = await fsck();
      expect(code).toBe(1);
      expect(report.ok).toBe(false);
      return report.findings;
    } finally {
      await undo();
    }
  };
  const flipByte = async (path: string, at: (text: Buffer) => number) => {
    const original = await readFile(path);
    const changed = Buffer.from(original);
    const i = at(changed);
    changed[i] = changed[i]! ^ 0x01;
    await writeFile(path, changed);
    return () => writeFile(path, original);
  };
  const dayFile = async () =>
    (await readdir(join(dataDir, 'receipts'))).find((n) => n.endsWith('.receipts.jsonl'))!;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'runledger-fsck-'));
    const url = engine === 'postgres' ? await ownDatabase() : null;
    env = { DATA_DIR: dataDir, ...(url === null ? {} : { DATABASE_URL: url }) };
    const server = await spawnServer(env);
    try {
      const { api } = await apiClient(server.url);
      const signed = await signIn(api, 'fsck@example.com');
      orgId = signed.orgId;
      const projectId = await newProject(api, signed.token);
      for (let i = 0; i < 6; i += 1)
        await mint(api, signed.token, await approvedRun(api, signed.token, projectId));
      const form = new FormData();
      form.append('label', 'trace');
      form.append('file', new Blob([Buffer.alloc(2048, 0x62)]), 'trace.bin');
      const upload = await fetch(
        `${server.url}/runs/${await newRun(api, signed.token, projectId)}/evidence/upload`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${signed.token}` },
          body: form,
        },
      );
      expect(upload.status).toBe(201);
      const { api: router } = await apiClient(server.routerUrl);
      const memberId = await newMember(router);
      for (let i = 0; i < 3; i += 1) {
        const quote = await fetch(`${server.routerUrl}/compute/quote`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ member_id: memberId, node_class: 'gpu_a_96gb', hours: 1 }),
        });
        expect(quote.status).toBe(201);
      }
      const checkpoint = await api('GET', '/ledger/checkpoint', { token: signed.token });
      expect(checkpoint.status).toBe(200);
    } finally {
      await server.close();
    }
    sql = await rawSql(dataDir, url);
  }, 120_000);
  afterAll(async () => {
    await sql?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('passes an intact deployment with exit 0', async () => {
    const { code, report, stderr } = await fsck();
    expect(stderr).toBe('');
    expect(report.findings).toEqual([]);
    expect(report.ok).toBe(true);
    expect(code).toBe(0);
    expect(report.checked).toMatchObject({
      organizations: 1,
      receipts: 6,
      blobs: 1,
      day_files: 1,
      day_file_lines: 4,
      signed_checkpoints: 1,
    });
    const text = await ops(['fsck'], env);
    expect(text.stdout).toMatch(/^OK: 1 organizations, 6 receipts/m);
  });

  it.skipIf(!pty)('draws a progress bar on stderr at a terminal, and none when piped', async () => {
    const { code, output } = await fsckAtTerminal(env);
    expect(output).toMatch(/\rfsck \[#{30}\] 100% 13\/13 receipts/);
    expect(output).toMatch(/OK: 1 organizations/);
    expect(code).toBe(0);
    const piped = await ops(['fsck'], env);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).not.toContain('fsck [');
  });

  it('names a changed payload byte by organization, log and seq', async () => {
    const findings = await damaged(async () => {
      const [row] = await sql.exec(
        'SELECT payload_text FROM receipts WHERE org_id = ? AND org_seq = 2',
        [orgId],
      );
      const original = row!['payload_text'] as string;
      await sql.exec('UPDATE receipts SET payload_text = ? WHERE org_id = ? AND org_seq = 2', [
        original.replace('"org_seq":2', '"org_seq":7'),
        orgId,
      ]);
      return async () =>
        void (await sql.exec(
          'UPDATE receipts SET payload_text = ? WHERE org_id = ? AND org_seq = 2',
          [original, orgId],
        ));
    });
    expect(findings).toContainEqual(
      expect.objectContaining({
        code: 'hash_mismatch',
        organization: orgId,
        log: 'ledger',
        seq: 2,
      }),
    );
  });

  it('names a changed stored hash, in the chain and in the tree', async () => {
    const findings = await damaged(async () => {
      const [row] = await sql.exec(
        'SELECT receipt_sha256 FROM receipts WHERE org_id = ? AND org_seq = 3',
        [orgId],
      );
      const original = row!['receipt_sha256'] as string;
      await sql.exec('UPDATE receipts SET receipt_sha256 = ? WHERE org_id = ? AND org_seq = 3', [
        'a'.repeat(64),
        orgId,
      ]);
      return async () =>
        void (await sql.exec(
          'UPDATE receipts SET receipt_sha256 = ? WHERE org_id = ? AND org_seq = 3',
          [original, orgId],
        ));
    });
    expect(findings).toContainEqual(
      expect.objectContaining({
        code: 'hash_mismatch',
        organization: orgId,
        log: 'ledger',
        seq: 3,
      }),
    );
    expect(findings).toContainEqual(
      expect.objectContaining({
        code: 'node_mismatch',
        log: 'ledger',
        node: { level: 0, index: 3 },
      }),
    );
  });

  it('names a changed Merkle node by level and index', async () => {
    const findings = await damaged(async () => {
      const where = "org_id = ? AND log = 'ledger' AND level = 1 AND idx = 0";
      const [row] = await sql.exec(`SELECT hash FROM merkle_nodes WHERE ${where}`, [orgId]);
      const original = row!['hash'] as string;
      await sql.exec(`UPDATE merkle_nodes SET hash = ? WHERE ${where}`, ['0'.repeat(64), orgId]);
      return async () =>
        void (await sql.exec(`UPDATE merkle_nodes SET hash = ? WHERE ${where}`, [original, orgId]));
    });
    expect(findings).toEqual([
      expect.objectContaining({
        code: 'node_mismatch',
        organization: orgId,
        log: 'ledger',
        node: { level: 1, index: 0 },
      }),
    ]);
  });

  it('names a blob whose byte changed by its file', async () => {
    const fan = (await readdir(join(dataDir, 'blobs'))).find((n) => /^[0-9a-f]{2}$/.test(n))!;
    const [name] = await readdir(join(dataDir, 'blobs', fan));
    const findings = await damaged(() => flipByte(join(dataDir, 'blobs', fan, name!), () => 100));
    expect(findings).toEqual([
      expect.objectContaining({ code: 'blob_hash_mismatch', file: join('blobs', fan, name!) }),
    ]);
  });

  it('names a changed day-file line by file and line', async () => {
    const name = await dayFile();
    const findings = await damaged(() =>
      flipByte(join(dataDir, 'receipts', name), (text) =>
        text.indexOf('gpu_a_96gb', text.indexOf('\n') + 1),
      ),
    );
    expect(findings).toContainEqual(
      expect.objectContaining({ code: 'checksum_mismatch', file: join('receipts', name), line: 2 }),
    );
  });

  it('names a day file whose anchor was changed', async () => {
    const name = await dayFile();
    const anchor = join(dataDir, 'receipts', `${name}.anchor`);
    const findings = await damaged(async () => {
      const original = await readFile(anchor, 'utf8');
      // The anchor's size line, one less: as if the file's last line had been dropped.
      const lines = original.split('\n');
      lines[1] = String(Number(lines[1]) - 1);
      await writeFile(anchor, lines.join('\n'));
      return () => writeFile(anchor, original);
    });
    // The count no longer matches the file, and the signature no longer matches the note.
    expect(findings.map((f) => [f.code, f.file])).toEqual([
      ['anchor_mismatch', join('receipts', name)],
      ['signature_invalid', join('receipts', name)],
    ]);
  });

  it('exits 2 when there is no database to read', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'runledger-fsck-empty-'));
    try {
      const ran = await ops(
        ['fsck'],
        engine === 'postgres'
          ? {
              DATA_DIR: empty,
              DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/rl_no_such_database',
            }
          : { DATA_DIR: empty },
      );
      expect(ran.stderr).toMatch(/fsck: the database cannot be read/);
      expect(ran.code).toBe(2);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
