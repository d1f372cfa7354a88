import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const root = new URL('../../', import.meta.url).pathname;

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion without a shell, with this environment plus `env`. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface Packed {
  name: string;
  /** The tarball's absolute path. */
  file: string;
  /** Paths inside the tarball, relative to the package root. */
  files: string[];
  manifest: {
    version: string;
    private?: boolean;
    engines?: Record<string, string>;
    exports?: Record<string, { types: string; default: string }>;
    dependencies?: Record<string, string>;
  };
}

/** `npm pack` of the given workspaces into `destination` (never the repository), as npm reports it. */
export async function packWorkspaces(
  workspaces: readonly string[],
  destination: string,
): Promise<Packed[]> {
  const { mkdir, readFile } = await import('node:fs/promises');
  await mkdir(destination, { recursive: true });
  const packed = await run(
    'npm',
    ['pack', '--json', '--pack-destination', destination, ...workspaces.flatMap((w) => ['-w', w])],
    root,
  );
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const report = JSON.parse(packed.stdout) as Array<{
    name: string;
    filename: string;
    files: Array<{ path: string }>;
  }>;
  return Promise.all(
    report.map(async (entry, i) => ({
      name: entry.name,
      file: join(destination, entry.filename),
      files: entry.files.map((f) => f.path),
      manifest: JSON.parse(
        await readFile(join(root, workspaces[i]!, 'package.json'), 'utf8'),
      ) as Packed['manifest'],
    })),
  );
}

/**
 * How a command is run with no network. Preferred: a fresh network namespace (`unshare -n`, which
 * needs root or user namespaces; CI runs as root), where only a loopback that is down exists. Else a
 * preload (NODE_OPTIONS) that makes every socket connect and DNS lookup throw in any Node process.
 * The caller proves either way with a probe fetch that must fail.
 */
export async function offlineRunner(): Promise<
  (command: string, args: readonly string[], cwd: string) => Promise<Ran>
> {
  const namespaces = await run('unshare', ['-n', 'true'], root).catch(() => null);
  if (namespaces?.code === 0) {
    return (command, args, cwd) => run('unshare', ['-n', command, ...args], cwd);
  }
  const preload = join(tmpdir(), `runledger-offline-${process.pid}.mjs`);
  await writeFile(
    preload,
    [
      "import dns from 'node:dns';",
      "import net from 'node:net';",
      "const refuse = () => { throw new Error('network disabled for this test'); };",
      'net.Socket.prototype.connect = refuse;',
      'dns.lookup = refuse;',
      'dns.promises.lookup = refuse;',
    ].join('\n'),
  );
  return (command, args, cwd) => run(command, args, cwd, { NODE_OPTIONS: `--import=${preload}` });
}
