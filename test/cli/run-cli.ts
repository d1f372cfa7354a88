import { spawn } from 'node:child_process';
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = `${root}cli/dist/main.js`;
export const VERIFY = `${root}verify-tool/dist/cli/main.js`;
export const SERVER_BIN = `${root}server/bin/runledger-server.js`;

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a node script as a child process, asynchronously: the server under test lives in this
 * process, so a synchronous spawn would keep it from answering.
 */
export function runNode(
  script: string,
  args: readonly string[],
  env: Record<string, string | undefined> = {},
  input?: string,
  /** Written to stdin once it resolves (for input the test learns only after the child started). */
  laterInput?: () => Promise<string>,
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: root,
      // Only what the test gives, plus PATH and HOME: no developer's RUNLEDGER_* leaks in.
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (laterInput) laterInput().then((text) => child.stdin.end(text), reject);
    else child.stdin.end(input ?? '');
  });
}

/** Parses a --json answer, failing with the CLI's stderr when the command did not succeed. */
export function json<T>(ran: Ran): T {
  if (ran.code !== 0) throw new Error(`exit ${ran.code}: ${ran.stderr}`);
  return JSON.parse(ran.stdout) as T;
}

/**
 * Builds the CLI and the server (for its `runledger-server` bin) once per test run. Test files
 * run in parallel processes, so an mkdir lock keeps two `tsc -b` from writing the same dist files.
 */
export async function buildCli(): Promise<void> {
  const lock = `${root}cli/.build-lock`;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock older than two minutes belongs to a run that died.
      const age = Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > 120_000) await rmdir(lock).catch(() => undefined);
      await sleep(200);
    }
  }
  try {
    const built = await runNode(`${root}node_modules/typescript/bin/tsc`, ['-b', 'cli', 'server']);
    if (built.code !== 0)
      throw new Error(`tsc -b cli server failed:\n${built.stdout}${built.stderr}`);
  } finally {
    await rmdir(lock);
  }
}

const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the CLI under a pseudo-terminal (util-linux `script`), so stdout and stderr are both a
 * terminal: for what the CLI does only for people (colour, aligned tables, progress bars). The
 * terminal merges the two streams and turns "\n" into "\r\n"; `output` has the "\r\n" undone but keeps
 * lone "\r" (a bar redrawing in place).
 */
export function runPty(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, CLI, ...args].map(shellQuote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: output.replace(/\r\n/g, '\n') }));
  });
}

/** True when util-linux `script` can give a child a pseudo-terminal here. */
export async function ptyAvailable(): Promise<boolean> {
  const probe = await new Promise<string>((resolve) => {
    const child = spawn('script', ['-qec', 'test -t 1 && echo tty', '/dev/null'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', () => resolve(''));
    child.on('close', () => resolve(out));
  });
  return probe.includes('tty');
}
