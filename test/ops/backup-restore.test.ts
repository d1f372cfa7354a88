import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VERIFY, runNode } from '../cli/run-cli.js';
import { signIn } from '../helpers/auth.js';
import { BASE_ENV, copySecrets, ops, ownDatabase } from '../helpers/deployment.js';
import { approvedRuns, mintStorm } from '../helpers/fault-storm.js';
import { apiClient } from '../helpers/openapi.js';
import { engines, type Engine } from '../helpers/postgres.js';
import { newMember } from '../helpers/router.js';
import { newProject, newRun } from '../helpers/runs.js';
import { spawnServer, type ServerProcess } from '../helpers/processes.js';

/**
 * `runledger-server backup` taken from a running server in the middle of a mint storm, restored
 * into a new DATA_DIR (and, on PostgreSQL, through pg_restore into a new database): every receipt
 * acknowledged before the backup began is there, the exports pass runledger-verify, every log of
 * the manifest is the restored log at the same size and root, and fsck finds the copy intact.
 */
const RUNS = 120;
const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

async function folder(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `runledger-${name}-`));
  scratch.push(dir);
  return dir;
}

interface ManifestLog {
  org_id: string;
  log: string;
  tree_size: number;
  root_hash: string;
}

/** An uploaded file (a blob) and a router quote (a day-file line), so the backup has both. */
async function sideFiles(server: ServerProcess, token: string, projectId: string): Promise<void> {
  const { api: router } = await apiClient(server.routerUrl);
  const memberId = await newMember(router);
  const quote = await fetch(`${server.routerUrl}/compute/quote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ member_id: memberId, node_class: 'gpu_a_96gb', hours: 1 }),
  });
  expect(quote.status).toBe(201);
  const form = new FormData();
  form.append('label', 'trace');
  form.append('file', new Blob([Buffer.alloc(4096, 0x61)]), 'trace.bin');
  const runId = await newRun((await apiClient(server.url)).api, token, projectId);
  const upload = await fetch(`${server.url}/runs/${runId}/evidence/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(upload.status).toBe(201);
}

async function exportVerifies(url: string, token: string, path: string, dir: string) {
  const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const file = join(dir, `${path.replaceAll('/', '_')}.ndjson`);
  await writeFile(file, await res.text());
  const keys = await fetch(`${url}/.well-known/runledger-keys.json`);
  await writeFile(join(dir, 'keys.json'), await keys.text());
  const verified = await runNode(VERIFY, ['--key', join(dir, 'keys.json'), file]);
  expect(verified.stdout + verified.stderr).not.toContain('FAIL');
  expect(verified.code).toBe(0);
  return (await readFile(file, 'utf8')).trimEnd().split('\n').slice(1);
}

describe.each(engines)('backup during a mint storm, restored (%s)', (engine: Engine) => {
  it('holds every receipt acknowledged before it began; the restored chains and manifest agree', async () => {
    const dataDir = await folder('data');
    const databaseUrl = engine === 'postgres' ? await ownDatabase() : null;
    const db: Record<string, string> = databaseUrl === null ? {} : { DATABASE_URL: databaseUrl };
    const env = { DATA_DIR: dataDir, ...db };
    const server = await spawnServer({ ...env, AUTH_REQUEST_LIMIT_PER_EMAIL: '1000' });
    const { api } = await apiClient(server.url);
    const { token } = await signIn(api, 'backup@example.com');
    const projectId = await newProject(api, token);
    await sideFiles(server, token, projectId);
    const runIds = await approvedRuns(api, token, projectId, RUNS);

    const out = join(await folder('backup'), 'b1');
    const acknowledged = new Set<string>();
    let acknowledgedBefore: string[] = [];
    let backup: ReturnType<typeof ops> | null = null;
    await mintStorm(server.url, token, runIds, {
      concurrency: 4,
      onAnswer: (answer, answered) => {
        if (answer.status === 201) acknowledged.add(answer.receiptId!);
        if (answered !== 10) return;
        acknowledgedBefore = [...acknowledged];
        backup = ops(['backup', '--out', out, '--json'], env);
      },
    });
    const done = await (backup as ReturnType<typeof ops> | null)!;
    await server.close();
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    const manifest = JSON.parse(done.stdout) as {
      logs: ManifestLog[];
      counts: { blobs: number; day_files: number };
    };
    expect(manifest.counts.blobs).toBe(1);
    expect(manifest.counts.day_files).toBeGreaterThanOrEqual(1);

    const restored = await folder('restored');
    const target: Record<string, string> =
      engine === 'postgres' ? { DATABASE_URL: await ownDatabase() } : {};
    const put = await ops(['restore', '--from', out, '--data-dir', restored], target);
    expect(put.stderr).toBe('');
    expect(put.code).toBe(0);
    await copySecrets(dataDir, restored);

    const fsck = await ops(['fsck', '--json'], { DATA_DIR: restored, ...target });
    expect(JSON.parse(fsck.stdout)).toMatchObject({ ok: true, findings: [] });
    expect(fsck.code).toBe(0);

    const again = await spawnServer({
      DATA_DIR: restored,
      ...target,
      ...BASE_ENV,
      LOG_LEVEL: 'info',
    });
    try {
      const scratchDir = await folder('verify');
      const lines = await exportVerifies(again.url, token, '/ledger/export', scratchDir);
      await exportVerifies(again.url, token, '/org/audit/export', scratchDir);
      const ids = new Set(lines.map((l) => (JSON.parse(l) as { receipt_id: string }).receipt_id));
      expect(acknowledgedBefore.length).toBeGreaterThan(0);
      for (const id of acknowledgedBefore) expect(ids.has(id), id).toBe(true);
      expect(manifest.logs.find((l) => l.log === 'ledger')!.tree_size).toBe(ids.size);
      // Each log of the manifest is the restored log: same size, same root.
      expect(manifest.logs.map((l) => l.log).sort()).toEqual(['audit', 'ledger']);
      for (const log of manifest.logs) {
        const path = log.log === 'ledger' ? '/ledger/checkpoint' : '/org/audit/checkpoint';
        const res = await fetch(`${again.url}${path}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const head = (await res.json()) as { tree_size: number; root_hash: string };
        expect({ tree_size: head.tree_size, root_hash: head.root_hash }, log.log).toEqual({
          tree_size: log.tree_size,
          root_hash: log.root_hash,
        });
      }
      const dayFiles = await runNode(VERIFY, [
        'receipts',
        '--key',
        join(scratchDir, 'keys.json'),
        join(restored, 'receipts'),
      ]);
      expect(dayFiles.code, dayFiles.stdout + dayFiles.stderr).toBe(0);
    } finally {
      await again.close();
    }
  }, 180_000);
});
