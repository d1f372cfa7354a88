import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, CLI, runNode, SERVER_BIN } from './run-cli.js';

describe('runledger-server (the server package bin) and the retired `runledger serve`', () => {
  let dataDir: string;

  beforeAll(async () => {
    await buildCli();
    dataDir = await mkdtemp(join(tmpdir(), 'runledger-serve-'));
  }, 180_000);
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('runledger-server serves both APIs from the environment and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [SERVER_BIN], {
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: '0',
        ROUTER_PORT: '0',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    let stdout = '';
    const urls = await new Promise<RegExpExecArray>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        const found = /listening on (\S+) \(router API on (\S+)\)/.exec(stdout);
        if (found) resolve(found);
      });
      child.on('close', () => reject(new Error(`runledger-server exited early: ${stdout}`)));
    });
    const main = await fetch(`${urls[1]}/health`);
    expect(main.status).toBe(200);
    const router = (await (await fetch(`${urls[2]}/health`)).json()) as { version: string };
    expect(router.version).toBe('0.1');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).toContain('shutting down');
  });

  it('`runledger serve` exits 2 and points to runledger-server', async () => {
    const ran = await runNode(CLI, ['serve', '--port', '0']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('runledger-server');
    expect(ran.stdout).toBe('');
  });

  it('the CLI package does not depend on the server', async () => {
    const { default: manifest } = (await import('../../cli/package.json', {
      with: { type: 'json' },
    })) as { default: { dependencies: Record<string, string> } };
    expect(Object.keys(manifest.dependencies)).not.toContain('@runledger/server');
  });
});
