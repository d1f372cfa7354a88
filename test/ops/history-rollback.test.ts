import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/auth.js';
import { ops, ownDatabase } from '../helpers/deployment.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { engines, type Engine } from '../helpers/postgres.js';
import { spawnServer } from '../helpers/processes.js';
import { approvedRun, mint, newProject } from '../helpers/runs.js';

/**
 * One history per log: a deployment restored from a backup older than a checkpoint it already
 * signed refuses to start and says what to do; ACCEPT_HISTORY_ROLLBACK=1 starts it and the
 * organization's audit chain says so; a database that has since grown another history of the same
 * length is refused too.
 */
const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

async function folder(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `runledger-${name}-`));
  scratch.push(dir);
  return dir;
}

async function mintSome(api: Api, token: string, projectId: string, count: number) {
  for (let i = 0; i < count; i += 1)
    await mint(api, token, await approvedRun(api, token, projectId));
}

async function checkpointSize(api: Api, token: string): Promise<number> {
  const signed = await api<{ tree_size: number }>('GET', '/ledger/checkpoint', { token });
  expect(signed.status).toBe(200);
  return signed.body.tree_size;
}

/** The start's failure, or null when it started (and was stopped again). */
async function startFails(env: Record<string, string>): Promise<string | null> {
  try {
    const server = await spawnServer(env);
    await server.close();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe.each(engines)('a restore from an older backup (%s)', (engine: Engine) => {
  it('is refused at start, started with ACCEPT_HISTORY_ROLLBACK=1 and recorded in the audit chain', async () => {
    const dataDir = await folder('history');
    const first: Record<string, string> =
      engine === 'postgres' ? { DATABASE_URL: await ownDatabase() } : {};
    const server = await spawnServer({ DATA_DIR: dataDir, ...first });
    const { api } = await apiClient(server.url);
    const { token, orgId } = await signIn(api, 'history@example.com');
    const projectId = await newProject(api, token);
    await mintSome(api, token, projectId, 2);
    expect(await checkpointSize(api, token)).toBe(2);
    const older = join(await folder('older'), 'b');
    const backup = await ops(['backup', '--out', older], { DATA_DIR: dataDir, ...first });
    expect(backup.code).toBe(0);
    await mintSome(api, token, projectId, 3);
    expect(await checkpointSize(api, token)).toBe(5);
    await server.close();

    // The database goes back to the backup; DATA_DIR/state (what was signed) stays.
    const second: Record<string, string> =
      engine === 'postgres' ? { DATABASE_URL: await ownDatabase() } : {};
    const env = { DATA_DIR: dataDir, ...second };
    const restored = await ops(
      ['restore', '--from', older, '--data-dir', dataDir, '--replace'],
      second,
    );
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);

    const refused = await startFails(env);
    expect(refused).toContain('refusing to start');
    expect(refused).toContain(
      `organization ${orgId}, log ledger: 2 entries in the database, but a checkpoint of 5 was signed`,
    );
    expect(refused).toContain('ACCEPT_HISTORY_ROLLBACK=1');
    const fsck = await ops(['fsck', '--json'], env);
    expect(fsck.stderr).toBe('');
    expect(fsck.code).toBe(1);
    expect(JSON.parse(fsck.stdout).findings).toEqual([
      expect.objectContaining({
        code: 'behind_signed_checkpoint',
        organization: orgId,
        log: 'ledger',
      }),
    ]);

    const stateFile = join(dataDir, 'state', 'signed-checkpoints.json');
    const savedState = join(await folder('state'), 'signed-checkpoints.json');
    await copyFile(stateFile, savedState);
    const accepted = await spawnServer({ ...env, ACCEPT_HISTORY_ROLLBACK: '1' });
    try {
      const client = (await apiClient(accepted.url)).api;
      const audit = await client<{
        entries: Array<{ payload: { actor: unknown; event: unknown } }>;
      }>('GET', '/org/audit?type=history.rollback_accepted', { token });
      expect(audit.status).toBe(200);
      expect(audit.body.entries.map((e) => e.payload)).toEqual([
        expect.objectContaining({
          actor: { kind: 'deployment', id: null },
          event: {
            type: 'history.rollback_accepted',
            log: 'ledger',
            tree_size: 2,
            signed: {
              tree_size: 5,
              root_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
              time: expect.any(String),
            },
          },
        }),
      ]);
      // The history goes on from the database: three new receipts, another tree of 5.
      await mintSome(client, token, projectId, 3);
      expect(await checkpointSize(client, token)).toBe(5);
    } finally {
      await accepted.close();
    }
    expect(await startFails(env)).toBeNull();

    // The checkpoint of 5 signed before the restore is not the tree of 5 the database now holds.
    await copyFile(savedState, stateFile);
    const differs = await startFails(env);
    expect(differs).toContain(`organization ${orgId}, log ledger: its first 5 entries differ`);
  }, 180_000);
});
