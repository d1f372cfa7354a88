import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CompactTree, consistencyProof, leafHash } from '@runledger/verify/merkle';
import {
  formatCheckpoint,
  formatSkey,
  formatVkey,
  noteSigner,
  parseNote,
  signNote,
} from '@runledger/verify/note';
import { base64Encode, parseCheckpoint } from '@runledger/verify/note';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { approvedRun, mint, newProject, sharePath, type MintedReceipt } from '../helpers/runs.js';
import { engines } from '../helpers/postgres.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  buildWitness,
  initWitness,
  startWitness,
  type WitnessProcess,
} from '../helpers/witness.js';
import { VERIFY, runNode } from '../cli/run-cli.js';

/*
 * End to end: a server with two real witness processes (WITNESSES), receipts minted, checkpoints
 * cosigned in the background; exports, share JSON and tlog-proof files verified with
 * --witness-threshold 2; an operator showing a witness a second history is refused.
 */
const seed = new Uint8Array(32).fill(21);
const logKey = noteSigner('runledger.test', seed);
const logVkey = formatVkey(logKey.name, logKey.publicKey);

let dir: string;
let witnesses: { process: WitnessProcess; vkey: string; dir: string }[];
let stranger: string;

beforeAll(async () => {
  buildWitness();
  dir = mkdtempSync(join(tmpdir(), 'runledger-witnessed-'));
  witnesses = [];
  for (const name of ['w1', 'w2']) {
    const wdir = join(dir, name);
    const vkey = initWitness(wdir, `witness.test/${name}`);
    witnesses.push({
      process: await startWitness(wdir, [`runledger.test/orgs/*=${logVkey}`]),
      vkey,
      dir: wdir,
    });
  }
  stranger = initWitness(join(dir, 'w3'), 'witness.test/w3');
});
afterAll(async () => {
  for (const w of witnesses ?? []) await w.process.stop();
  rmSync(dir, { recursive: true, force: true });
});

const cosignatureLines = (note: string) =>
  note.split('\n').filter((l) => l.startsWith('\u2014 witness.test/')).length;

describe.each(engines)('a witnessed log, end to end (%s)', (engine) => {
  let server: TestServer;
  let api: Api;
  let ada: SignedIn;
  let minted: MintedReceipt[];

  beforeAll(async () => {
    server = await startTestServer(
      {
        SIGNING_KEY: formatSkey('runledger.test', seed),
        WITNESSES: JSON.stringify(witnesses.map((w) => ({ url: w.process.url, vkey: w.vkey }))),
        WITNESS_INTERVAL_SECONDS: '0.2',
      },
      { engine },
    );
    ({ api } = await apiClient(server.url));
    ada = await signIn(api, 'ada@example.com');
    const project = await newProject(api, ada.token);
    minted = [];
    for (let i = 0; i < 3; i += 1)
      minted.push(await mint(api, ada.token, await approvedRun(api, ada.token, project)));
    writeFileSync(
      join(dir, 'keys.json'),
      (await api('GET', '/.well-known/runledger-keys.json')).text,
    );
  }, 120_000);
  afterAll(async () => server?.close());

  /** Waits until the ledger's served checkpoint is at `size` with both cosignatures. */
  async function cosignedAt(size: number): Promise<string> {
    for (;;) {
      const answer = await api<{ checkpoint: string; tree_size: number }>(
        'GET',
        '/ledger/checkpoint',
        { token: ada.token },
      );
      if (answer.body.tree_size === size && cosignatureLines(answer.body.checkpoint) === 2)
        return answer.body.checkpoint;
      await sleep(100);
    }
  }

  const verify = (...args: string[]) => runNode(VERIFY, ['--key', join(dir, 'keys.json'), ...args]);
  const both = () => [
    '--witness',
    witnesses[0]!.vkey,
    '--witness',
    witnesses[1]!.vkey,
    '--witness-threshold',
    '2',
  ];

  it('serves checkpoints cosigned by both witnesses: ledger, tiles and export', async () => {
    const note = await cosignedAt(3);
    const tiles = await fetch(`${server.url}/tlog/${ada.orgId}/ledger/checkpoint`, {
      headers: { authorization: `Bearer ${ada.token}` },
    });
    expect(cosignatureLines(await tiles.text())).toBe(2);
    const exported = await api('GET', '/ledger/export', { token: ada.token });
    const file = join(dir, 'export.ndjson');
    writeFileSync(file, exported.text);
    expect(JSON.parse(exported.text.split('\n')[0]!).checkpoint).toBe(note);
    const ok = await verify(...both(), file);
    expect([ok.code, ok.stdout]).toEqual([0, expect.stringContaining('WITNESSED')]);
    const unknown = await verify(
      '--witness',
      witnesses[0]!.vkey,
      '--witness',
      stranger,
      '--witness-threshold',
      '2',
      file,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain('witness_quorum');
  });

  it('answers a tlog-proof for a shared receipt that verifies, and a changed byte fails', async () => {
    await cosignedAt(3);
    const share = await api('GET', sharePath(minted[1]!.share_url), {
      headers: { accept: 'application/json' },
    });
    writeFileSync(join(dir, 'share.json'), share.text);
    expect((await verify(...both(), 'receipt', join(dir, 'share.json'))).code).toBe(0);
    const proof = await fetch(`${server.url}${sharePath(minted[1]!.share_url)}/tlog-proof`);
    expect(proof.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await proof.text();
    expect(text.startsWith('c2sp.org/tlog-proof@v1\nextra ')).toBe(true);
    writeFileSync(join(dir, 'r.tlog-proof'), text);
    const ok = await verify(
      ...both(),
      'tlog-proof',
      '--share',
      join(dir, 'share.json'),
      join(dir, 'r.tlog-proof'),
    );
    expect(ok.code).toBe(0);
    const changed = text.replace(/index 1\n/, 'index 2\n');
    writeFileSync(join(dir, 'bad.tlog-proof'), changed);
    expect((await verify(...both(), 'tlog-proof', join(dir, 'bad.tlog-proof'))).code).toBe(1);
  });

  it('refuses an operator presenting a second history to the same witness', async () => {
    const note = await cosignedAt(3);
    const origin = parseCheckpoint(parseNote(note).text).origin;
    // Another history of the same log, signed with the log's own key: 3 leaves, then 5.
    const tree = CompactTree.empty();
    const nodes = new Map<string, Uint8Array>();
    for (let i = 0; i < 5; i += 1)
      tree
        .append(leafHash(new Uint8Array(32).fill(i + 100)))
        .forEach((n) => nodes.set(`${n.level}/${n.index}`, n.hash));
    const other = (size: number, root: Uint8Array) =>
      signNote(formatCheckpoint({ origin, size, rootHash: root, extensions: [] }), [logKey]);
    const rootAt3 = CompactTree.empty();
    for (let i = 0; i < 3; i += 1) rootAt3.append(leafHash(new Uint8Array(32).fill(i + 100)));
    const post = (body: string) =>
      fetch(`${witnesses[0]!.process.url}/add-checkpoint`, { method: 'POST', body });
    const same = await post(`old 3\n\n${other(3, rootAt3.root())}`);
    expect(same.status).toBe(409);
    const proof = consistencyProof(3, 5, (l, i) => nodes.get(`${l}/${i}`)!)
      .map((h) => base64Encode(h) + '\n')
      .join('');
    expect((await post(`old 3\n${proof}\n${other(5, tree.root())}`)).status).toBe(422);
    // The honest history still gets cosigned as it grows.
    minted.push(
      await mint(
        api,
        ada.token,
        await approvedRun(api, ada.token, await newProject(api, ada.token, 'p2')),
      ),
    );
    expect(cosignatureLines(await cosignedAt(4))).toBe(2);
  });
});
