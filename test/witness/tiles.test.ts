import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AUDIT_LOG, LEDGER_LOG } from '@runledger/core/adapter';
import type { Storage } from '@runledger/core/ports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { engines } from '../helpers/postgres.js';
import { approvedRun, mint, newProject } from '../helpers/runs.js';
import { openServerStorage, ownProofs, seedAuditLog } from '../helpers/seed-log.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/*
 * Go's checksum-database client code (golang.org/x/mod/sumdb/tlog) reads the logs as C2SP
 * tlog-tiles over HTTP through a tlog.TileReader and must compute the roots and proofs runledger
 * computes, at tree sizes on either side of tile edges. The audit log is grown to 65,537 receipts
 * through the storage layer (real chained audit receipts and their leaves, in batches), which is
 * far faster than causing that many audited events over HTTP.
 */
const GOPATH = process.env.RUNLEDGER_GOPATH ?? '/usr/share/gocode';
const SOURCE = resolve(import.meta.dirname, 'tile-reader');
let binary: string;
let buildDir: string;

interface GoAnswer {
  size: number;
  root_hex: string;
  roots: string[];
  inclusion: string[][];
  consistency: string[][];
  entries_checked: number;
  fetched: string[];
}

/** Runs the Go reader without blocking: the server answering it runs in this process. */
async function askGo(request: object): Promise<GoAnswer> {
  const child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(JSON.stringify(request));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  if (code !== 0) throw new Error(`the Go tile reader failed: ${stderr}`);
  return JSON.parse(stdout) as GoAnswer;
}

beforeAll(() => {
  buildDir = mkdtempSync(join(tmpdir(), 'runledger-tile-reader-'));
  binary = join(buildDir, 'tile-reader');
  execFileSync('go', ['build', '-o', binary, '.'], {
    cwd: SOURCE,
    env: { ...process.env, GO111MODULE: 'off', GOPATH },
    stdio: 'inherit',
  });
});
afterAll(() => rmSync(buildDir, { recursive: true, force: true }));

/** Indexes and sizes to ask about in a tree of `size`: edges of tiles and the ends. */
function probes(size: number) {
  const candidates = [
    0,
    1,
    254,
    255,
    256,
    257,
    511,
    65_535,
    65_536,
    size - 1,
    Math.floor(size / 2),
  ];
  const inTree = [...new Set(candidates.filter((n) => n >= 0 && n < size))];
  const sizes = [...new Set(inTree.map((n) => n + 1))];
  return { roots: sizes, inclusion: inTree, consistency: sizes };
}

describe.each(engines)('C2SP tlog-tiles read by Go sumdb/tlog (%s)', (engine) => {
  let server: TestServer;
  let api: Api;
  let ada: SignedIn;
  let storage: Storage;
  let vkey: string;

  beforeAll(async () => {
    server = await startTestServer({}, { engine });
    ({ api } = await apiClient(server.url));
    ada = await signIn(api, 'ada@example.com');
    storage = await openServerStorage(server);
    const keys = await api<{ keys: { vkey: string }[] }>('GET', '/.well-known/runledger-keys.json');
    vkey = keys.body.keys[0]!.vkey;
  }, 120_000);
  afterAll(async () => {
    await storage?.close();
    await server?.close();
  });

  const prefix = (log: string) => `${server.url}/tlog/${ada.orgId}/${log}/`;

  async function compare(log: string, size: number) {
    const asked = probes(size);
    const go = await askGo({ prefix: prefix(log), token: ada.token, vkey, ...asked });
    expect(go.size).toBe(size);
    const own = await ownProofs(storage, ada.orgId, log, size, asked);
    expect(go.root_hex).toBe(own.root);
    expect(go.roots).toEqual(own.roots);
    expect(go.inclusion).toEqual(own.inclusion);
    expect(go.consistency).toEqual(own.consistency);
    expect(go.entries_checked).toBe(size);
    return go;
  }

  it('serves the ledger: checkpoint, partial tiles and entry bundles of minted receipts', async () => {
    const project = await newProject(api, ada.token);
    for (let i = 0; i < 3; i += 1)
      await mint(api, ada.token, await approvedRun(api, ada.token, project));
    const go = await compare(LEDGER_LOG, 3);
    expect(go.fetched).toEqual(
      expect.arrayContaining(['checkpoint', 'tile/0/000.p/3', 'tile/entries/000.p/3']),
    );
  });

  it.each([255, 256, 257, 65_536, 65_537])(
    'gives Go the same roots and proofs at audit log size %i',
    async (size) => {
      await seedAuditLog(storage, ada.orgId, size);
      const go = await compare(AUDIT_LOG, size);
      if (size === 65_537) {
        expect(go.fetched).toEqual(
          expect.arrayContaining([
            'tile/2/000.p/1',
            'tile/1/000',
            'tile/0/256.p/1',
            'tile/entries/256.p/1',
          ]),
        );
      }
    },
    600_000,
  );

  it('marks full tiles immutable and answers 404 for tiles not there yet, bad paths and other orgs', async () => {
    const get = (path: string, token = ada.token) =>
      fetch(`${prefix(AUDIT_LOG)}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const full = await get('tile/0/000');
    expect(full.status).toBe(200);
    expect(full.headers.get('cache-control')).toContain('immutable');
    expect((await full.arrayBuffer()).byteLength).toBe(8192);
    const entries = await get('tile/entries/000');
    expect(new Uint8Array(await entries.arrayBuffer()).slice(0, 2)).toEqual(
      Uint8Array.from([0, 32]),
    );
    const checkpoint = await get('checkpoint');
    expect(checkpoint.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(checkpoint.headers.get('cache-control')).toBe('private, max-age=5');
    for (const path of [
      'tile/0/x257/000',
      'tile/0/000.p/0',
      'tile/0/0',
      'tile/00/000',
      'tile/0/x000/001',
      'tile/entries/x999/000',
      'tile/64/000',
    ])
      expect([path, (await get(path)).status]).toEqual([path, 404]);
    const bob = await signIn(api, 'bob@example.com');
    expect((await get('tile/0/000', bob.token)).status).toBe(404);
    expect((await fetch(`${prefix(AUDIT_LOG)}tile/0/000`)).status).toBe(401);
    expect(
      (
        await fetch(`${server.url}/tlog/${ada.orgId}/other/checkpoint`, {
          headers: { authorization: `Bearer ${ada.token}` },
        })
      ).status,
    ).toBe(404);
  });
});
