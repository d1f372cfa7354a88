import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const MAIN = resolve(import.meta.dirname, '../../witness/dist/main.js');

/** Builds the witness package (and what it depends on) once per test file. */
export function buildWitness(): void {
  execFileSync('npx', ['tsc', '-b', resolve(import.meta.dirname, '../../witness')], {
    stdio: 'inherit',
  });
}

/** `runledger-witness init`: makes the key in `dir` and returns the printed vkey. */
export function initWitness(dir: string, name: string): string {
  return execFileSync(process.execPath, [MAIN, 'init', '--data', dir, '--name', name], {
    encoding: 'utf8',
  }).trim();
}

export interface WitnessProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `runledger-witness serve` on a free loopback port; resolves once it says where it listens. */
export async function startWitness(dir: string, logs: readonly string[]): Promise<WitnessProcess> {
  const args = ['serve', '--data', dir, '--listen', '127.0.0.1:0'];
  for (const log of logs) args.push('--log', log);
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((done, fail) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /^listening on (http:\/\/\S+)$/.exec(line);
      if (match !== null) done(match[1]!);
    });
    child.once('exit', (code) => fail(new Error(`the witness exited ${code}: ${stderr}`)));
  });
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
