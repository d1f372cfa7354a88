import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, CLI } from './run-cli.js';

describe('runledger serve', () => {
  let dataDir: string;

  beforeAll(async () => {
    await buildCli();
    dataDir = await mkdtemp(join(tmpdir(), 'runledger-serve-'));
  }, 180_000);
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('serves both APIs from the environment and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--router-port', '0'], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    let stderr = '';
    const urls = await new Promise<RegExpExecArray>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const found = /listening on (\S+) \(router API on (\S+)\)/.exec(stderr);
        if (found) resolve(found);
      });
      child.on('close', () => reject(new Error(`serve exited early: ${stderr}`)));
    });
    const main = await fetch(`${urls[1]}/health`);
    expect(main.status).toBe(200);
    const router = (await (await fetch(`${urls[2]}/health`)).json()) as { version: string };
    expect(router.version).toBe('0.1');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toContain('shutting down');
  });
});
