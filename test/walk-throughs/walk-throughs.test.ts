import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { continuesFrom, fencedBlocks, type Block } from './blocks.js';
import { buildCli } from '../cli/run-cli.js';

/**
 * Every shell walk-through of README.md and docs/*.md runs as written (docs/design.md#walk-throughs):
 * a page's `sh server` blocks start first, each in its own bash in the background (the first
 * terminal), and once each answers GET /ready its `sh` blocks run in order as one bash script (the
 * second terminal, `set -euo pipefail`), in a fresh copy of the repository with a fresh HOME. Any
 * non-zero exit fails the page. npm takes its packages from this machine's cache (the registry only
 * for what is missing) and runs no install scripts: better-sqlite3 is not compiled again for the
 * embedding page's empty project (test/packaging runs that example against the installed tarballs).
 */
const root = new URL('../../', import.meta.url).pathname;
const RUNNABLE = new Set(['sh', 'sh server']);

interface Page {
  name: string;
  blocks: Block[];
}

async function pages(): Promise<Page[]> {
  const names = ['README.md', ...(await readdir(join(root, 'docs'))).map((f) => `docs/${f}`)];
  const read = async (name: string) => readFile(join(root, name), 'utf8');
  const found: Page[] = [];
  for (const name of names.filter((n) => n.endsWith('.md')).sort()) {
    const text = await read(name);
    const own = fencedBlocks(text).filter((b) => RUNNABLE.has(b.info));
    if (own.length === 0) continue;
    const after = continuesFrom(text);
    const before = after
      ? fencedBlocks(await read(after.page)).filter(
          (b) => RUNNABLE.has(b.info) && b.section === after.section,
        )
      : [];
    if (after) expect(before.length, `${name} continues ${after.page}`).toBeGreaterThan(0);
    found.push({ name, blocks: [...before, ...own] });
  }
  return found;
}

/** The repository as a new user has it after `npm ci && npm run build`, in a temporary folder. */
async function freshCopy(into: string): Promise<string> {
  const copy = join(into, 'runledger');
  const skip = new Set(['node_modules', '.git', 'data', 'coverage']);
  for (const entry of await readdir(root)) {
    if (!skip.has(entry))
      await cp(join(root, entry), join(copy, entry), { recursive: true, preserveTimestamps: true });
  }
  // Hard links: node_modules in a few seconds, and nothing a step does there reaches this repository.
  const linked = await run('cp', ['-al', join(root, 'node_modules'), join(copy, 'node_modules')]);
  expect(linked.code, linked.output).toBe(0);
  return copy;
}

function environment(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
    npm_config_prefer_offline: 'true',
    npm_config_ignore_scripts: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; detached?: boolean } = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      // A detached script's own group: whatever it started in the background ends with it.
      if (options.detached) killGroup(child.pid!);
      resolve({ code, output });
    });
  });
}

const script = (blocks: Block[]) =>
  [
    'set -euo pipefail',
    ...blocks.map((b) => `# ${b.section || 'top'} (line ${b.line})\n${b.code}`),
  ].join('\n');

/** Starts a `sh server` block in its own process group and waits until it answers GET /ready. */
async function startServer(block: Block, cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn('bash', ['-c', script([block])], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  let exited = false;
  child.on('close', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`the server block at line ${block.line} exited:\n${output}`);
    const url = /listening on (http:\/\/\S+?)[\s"]/.exec(output)?.[1];
    const ready = url ? await fetch(`${url}/ready`).catch(() => null) : null;
    if (ready?.status === 200) return { child, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // The group has already ended.
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const closed = new Promise((resolve) => child.on('close', resolve));
  killGroup(child.pid!);
  await closed;
}

const hasSecuresystemslib = async () =>
  (await run('/usr/bin/python3', ['-c', 'import securesystemslib'])).code === 0;

describe('the shell walk-throughs', async () => {
  const all = await pages();
  // The attestation page checks an envelope with Debian's python3-securesystemslib, as CI installs
  // it; without it that page is skipped.
  const dsse = await hasSecuresystemslib();
  const needsDsse = (page: Page) => page.blocks.some((b) => b.code.includes('verify_dsse.py'));

  it('finds the walk-throughs', () => {
    expect(all.map((p) => p.name)).toEqual(expect.arrayContaining(['README.md', 'docs/router.md']));
  });

  for (const page of all) {
    const name = page.name;
    it.skipIf(needsDsse(page) && !dsse)(
      `${name} runs as written`,
      async () => {
        await buildCli(); // the built packages the copy starts from, as after `npm run build`
        const folder = await mkdtemp(join(tmpdir(), 'runledger-walk-'));
        const servers: ChildProcess[] = [];
        try {
          const copy = await freshCopy(folder);
          const home = join(folder, 'home');
          await mkdir(home);
          const env = environment(home);
          const logs: Array<() => string> = [];
          for (const block of page.blocks.filter((b) => b.info === 'sh server')) {
            const server = await startServer(block, copy, env);
            servers.push(server.child);
            logs.push(server.output);
          }
          const before = (await readdir(copy)).sort();
          const steps = page.blocks.filter((b) => b.info === 'sh');
          const ran = await run('bash', ['-c', script(steps)], { cwd: copy, env, detached: true });
          expect(
            ran.code,
            `${name}:\n${ran.output}\n--- server ---\n${logs.map((l) => l()).join('\n')}`,
          ).toBe(0);
          // A walk-through leaves nothing in the repository's folder: its files go to fresh folders.
          expect((await readdir(copy)).sort()).toEqual(before);
        } finally {
          for (const child of servers) await stop(child);
          await rm(folder, { recursive: true, force: true });
        }
      },
      900_000,
    );
  }
});
