import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainOf, exportLinesOf } from '../testing/ledger.js';

const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(PACKAGE, 'dist/cli/main.js');
const ORG = 'org_term';
let dir: string;
let exportPath: string;
const hasScript = spawnSync('script', ['--version']).status === 0;

/** Runs the CLI under a pseudo-terminal (util-linux `script`), returning what the terminal got. */
function underTerminal(env: Record<string, string>, ...args: string[]): string {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  return execFileSync('script', ['-qfec', command, '/dev/null'], {
    encoding: 'utf8',
    env: { ...process.env, TERM: 'xterm', NO_COLOR: '', ...env },
  });
}

beforeAll(() => {
  execFileSync('npx', ['tsc', '-b', PACKAGE], { stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'runledger-verify-term-'));
  exportPath = join(dir, 'ledger.ndjson');
  writeFileSync(exportPath, exportLinesOf(chainOf(2500, ORG), ORG).join('\n') + '\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runledger-verify progress bar', () => {
  it.skipIf(!hasScript)(
    'draws total, percent and rate on a terminal, in colour unless NO_COLOR',
    () => {
      const out = underTerminal({}, exportPath);
      expect(out).toMatch(/verifying \[.*#.*\] 100% 2500\/2500 receipts, \d+\/s/);
      expect(out).toMatch(/\] \d{1,2}% \d+\/2500 receipts/);
      expect(out).toContain('\u001b[32m#');
      expect(out).toContain('OK: every receipt hash');

      const plain = underTerminal({ NO_COLOR: '1' }, exportPath);
      expect(plain).toContain('verifying [########################] 100% 2500/2500 receipts');
      expect(plain).not.toContain('\u001b[');
    },
  );

  it('writes nothing but the summary when stderr is not a terminal', () => {
    const run = spawnSync(process.execPath, [BIN, exportPath], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain('\r');
    expect(run.stdout).not.toContain('%');
  });
});

describe('runledger-verify --threads', () => {
  /** The same export intact and damaged in ways that make worker blocks unclean. */
  const variants: Record<string, { exit: number; damage: (lines: string[]) => string[] }> = {
    intact: { exit: 0, damage: (lines) => lines },
    'changed payload': {
      exit: 1,
      damage: (lines) => {
        lines[1700] = lines[1700]!.replace('"pass"', '"fail"');
        return lines;
      },
    },
    'swapped lines': {
      exit: 1,
      damage: (lines) => {
        [lines[10], lines[2400]] = [lines[2400]!, lines[10]!];
        return lines;
      },
    },
    'dropped line (truncated)': { exit: 2, damage: (lines) => lines.filter((_, i) => i !== 900) },
    'cut last line': {
      exit: 2,
      damage: (lines) => [...lines.slice(0, -1), lines.at(-1)!.slice(0, 100)],
    },
  };

  it('gives the same JSON result with worker threads as in one thread', () => {
    const lines = exportLinesOf(chainOf(2500, ORG), ORG);
    for (const [name, { exit, damage }] of Object.entries(variants)) {
      const path = join(dir, `${name.replace(/\W+/g, '-')}.ndjson`);
      writeFileSync(path, damage([...lines]).join('\r\n'));
      const runs = ['0', '2'].map((threads) =>
        spawnSync(process.execPath, [BIN, '--json', '--threads', threads, path], {
          encoding: 'utf8',
        }),
      );
      expect(runs[1]!.status, name).toBe(runs[0]!.status);
      expect(JSON.parse(runs[1]!.stdout), name).toEqual(JSON.parse(runs[0]!.stdout));
      expect(runs[0]!.status, name).toBe(exit);
    }
  });

  it('refuses a thread count that is not a number', () => {
    const run = spawnSync(process.execPath, [BIN, '--threads', 'many', exportPath], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--threads needs a number');
  });
});
