import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../cli/run-cli.js';
import { embeddingExample, installLine } from './readme.js';
import { offlineRunner, packWorkspaces, run, type Packed } from './tarballs.js';

/**
 * Packs the publishable packages the way `npm publish` would, installs the tarballs into an empty
 * project (no workspace, no link back to this repository) and uses them there: the verifier's bin
 * with the network unavailable, the CLI's bin, and the embedding example of docs/embedding.md, type-checked and
 * run exactly as printed.
 */
const PACKAGES = ['verify-tool', 'core', 'adapters', 'cli', 'server'] as const;
const root = new URL('../../', import.meta.url).pathname;

describe('the packed packages, installed into an empty project', () => {
  let folder: string;
  let app: string;
  let packed: Packed[];

  beforeAll(async () => {
    await buildCli(); // builds every package through project references
    folder = await mkdtemp(join(tmpdir(), 'runledger-packed-'));
    packed = await packWorkspaces(PACKAGES, join(folder, 'tarballs'));
    app = join(folder, 'app');
    await mkdir(app);
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({ name: 'embedder', private: true, type: 'module' }),
    );
    // --prefer-offline: dependencies come from the local npm cache, the registry only for what is
    // missing there. --ignore-scripts: better-sqlite3's install script would compile it again (minutes);
    // its binding is copied from this repository's install below instead.
    const install = await run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        ...packed.map((p) => p.file),
      ],
      app,
    );
    expect(install.code, install.stderr).toBe(0);
    const driver = 'node_modules/better-sqlite3';
    const [ours, theirs] = await Promise.all([
      readFile(join(root, driver, 'package.json'), 'utf8'),
      readFile(join(app, driver, 'package.json'), 'utf8'),
    ]);
    // Same better-sqlite3 version and the same Node: the binding compiled by this repository's `npm ci` fits.
    expect(JSON.parse(theirs).version).toBe(JSON.parse(ours).version);
    await mkdir(join(app, driver, 'build/Release'), { recursive: true });
    await copyFile(
      join(root, driver, 'build/Release/better_sqlite3.node'),
      join(app, driver, 'build/Release/better_sqlite3.node'),
    );
  }, 600_000);
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('ships each package with its LICENSE, engines and no maps, build info, tests or benches', () => {
    for (const pkg of packed) {
      const paths = pkg.files;
      expect([pkg.name, paths]).toEqual([pkg.name, expect.arrayContaining(['LICENSE'])]);
      const stray = paths.filter(
        (p) =>
          /\.map$|\.tsbuildinfo$|\.test\.|(^|\/)bench\/|(^|\/)generate\/|^src\//.test(p) ||
          (p.startsWith('dist/testing/') && pkg.name !== '@runledger/core'),
      );
      expect([pkg.name, stray]).toEqual([pkg.name, []]);
      expect([pkg.name, pkg.manifest.engines]).toEqual([pkg.name, { node: '>=20.19.0' }]);
      expect([pkg.name, pkg.manifest.private]).toEqual([pkg.name, undefined]);
    }
  });

  it('exports every library subpath with its types, and ships both files', () => {
    const libraries = packed.filter((p) => p.name !== '@runledger/cli');
    expect(libraries.length).toBe(4);
    for (const pkg of libraries) {
      const entries = Object.entries(pkg.manifest.exports ?? {});
      expect(entries.length).toBeGreaterThan(0);
      for (const [subpath, target] of entries) {
        for (const file of [target.types, target.default]) {
          expect([pkg.name, subpath, pkg.files]).toEqual([
            pkg.name,
            subpath,
            expect.arrayContaining([file.replace(/^\.\//, '')]),
          ]);
        }
        expect(target.types).toMatch(/\.d\.ts$/);
      }
    }
  });

  it('installs verify, core and adapters without the server, each at the version the others name', () => {
    const version = packed[0]!.manifest.version;
    for (const pkg of packed) {
      expect([pkg.name, pkg.manifest.version]).toEqual([pkg.name, version]);
      for (const [dep, range] of Object.entries(pkg.manifest.dependencies ?? {})) {
        if (dep.startsWith('@runledger/'))
          expect([pkg.name, dep, range]).toEqual([pkg.name, dep, version]);
      }
      if (pkg.name !== '@runledger/server') {
        for (const server of ['@runledger/server', 'express']) {
          expect([pkg.name, pkg.manifest.dependencies?.[server]]).toEqual([pkg.name, undefined]);
        }
      }
    }
  });

  it('runs runledger-verify on a sample export with no network: 0 intact, 1 tampered', async () => {
    const offline = await offlineRunner();
    // The probe shows the network really is unavailable to a command run this way.
    const probe = await offline(
      process.execPath,
      [
        '-e',
        "fetch('http://registry.npmjs.org/').then(() => process.exit(0), () => process.exit(7))",
      ],
      app,
    );
    expect(probe.code).toBe(7);

    const sample = join(app, 'node_modules/@runledger/verify/vectors/chain-3.ndjson');
    const bin = join(app, 'node_modules/.bin/runledger-verify');
    const intact = await offline(bin, [sample], app);
    expect([intact.code, intact.stdout]).toEqual([0, expect.stringContaining('OK: every receipt')]);

    const tampered = join(folder, 'tampered.ndjson');
    const lines = (await readFile(sample, 'utf8')).split('\n');
    lines[2] = lines[2]!.replace(/"title":"[^"]*"/, '"title":"edited"');
    expect(lines[2]).toContain('"title":"edited"');
    await writeFile(tampered, lines.join('\n'));
    const refused = await offline(bin, [tampered], app);
    expect(refused.code).toBe(1);
  }, 60_000);

  it('runs `runledger --help` from the installed CLI', async () => {
    const help = await run(join(app, 'node_modules/.bin/runledger'), ['--help'], app);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('runledger')]);
    expect(help.stdout).toContain('login');
  }, 60_000);

  it('starts the installed runledger-server, which answers /health, and stops it on SIGTERM', async () => {
    const dataDir = join(folder, 'server-data');
    const child = spawn(join(app, 'node_modules/.bin/runledger-server'), [], {
      cwd: app,
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
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const found = /listening on (\S+) /.exec(output);
        if (found) resolve(found[1]!);
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.on('close', () => reject(new Error(`runledger-server exited early: ${output}`)));
    });
    expect((await fetch(`${url}/health`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it('type-checks and runs the embedding example of docs/embedding.md as printed', async () => {
    const doc = await readFile(join(root, 'docs', 'embedding.md'), 'utf8');
    const example = embeddingExample(doc);
    // The install line names exactly the packages the example imports (and verify, which core needs).
    const imported = [...example.matchAll(/from '(@runledger\/[a-z-]+)'/g)].map((m) => m[1]);
    expect(installLine(doc)).toEqual(expect.arrayContaining(imported));

    await writeFile(join(app, 'example.ts'), example);
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          types: ['node'],
          // @types/node from this repository: the embedder brings its own.
          typeRoots: [join(root, 'node_modules/@types')],
        },
        files: ['example.ts'],
      }),
    );
    const tsc = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc')], app);
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
    const ran = await run(process.execPath, ['example.js'], app);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(
      /^rcpt-000000-[0-9a-f]{8} \{ ok: true, receipts_checked: 1, errors: \[\] \}\n$/,
    );
  }, 300_000);
});
