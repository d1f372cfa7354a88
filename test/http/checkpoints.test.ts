import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  canonicalJson,
  checkSignedCheckpoint,
  parseKeysDocument,
  receiptHash,
  receiptId,
  verifyConsistency,
  verifyInclusion,
} from '@runledger/verify';
import { formatExportLine } from '@runledger/verify/export';
import { formatSkey } from '@runledger/verify/note';
import { fromHex } from '@runledger/verify/hash';
import { leafHash, merkleRoot } from '@runledger/verify/merkle';
import { receiptLeaf } from '@runledger/verify/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { captureLog } from '../helpers/captured-log.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { approvedRun, mint, newProject, sharePath, type MintedReceipt } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CLI, VERIFY, runNode } from '../cli/run-cli.js';

const N = 7;

interface Checkpoint {
  checkpoint: string;
  tree_size: number;
  root_hash: string;
  key_id: string;
}

const hexes = (hashes: string[]) => hashes.map((h) => fromHex(h) as Uint8Array);
const leafOf = (r: { receipt_sha256: string }) => leafHash(receiptLeaf(r.receipt_sha256));

describe('signed checkpoints and proofs over HTTP', () => {
  let server: TestServer;
  let api: Api;
  let ada: SignedIn;
  let bob: SignedIn;
  let minted: MintedReceipt[];
  let bobs: MintedReceipt;
  let dir: string;
  let keysFile: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    ada = await signIn(api, 'ada@example.com');
    bob = await signIn(api, 'bob@example.com');
    const project = await newProject(api, ada.token);
    minted = [];
    for (let i = 0; i < N; i += 1) {
      minted.push(await mint(api, ada.token, await approvedRun(api, ada.token, project)));
    }
    bobs = await mint(
      api,
      bob.token,
      await approvedRun(api, bob.token, await newProject(api, bob.token)),
    );
    dir = await mkdtemp(join(tmpdir(), 'runledger-ckpt-'));
    keysFile = join(dir, 'keys.json');
    const keys = await api('GET', '/.well-known/runledger-keys.json');
    await writeFile(keysFile, keys.text);
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const get = <T>(path: string, token = ada.token) => api<T>('GET', path, { token });

  it('publishes the key in use without a credential, self-consistent', async () => {
    const answer = await api('GET', '/.well-known/runledger-keys.json');
    expect(answer.status).toBe(200);
    const keys = parseKeysDocument(answer.body);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ name: 'runledger.test', notAfter: null });
  });

  it('signs a checkpoint of the organization’s tree that verifies under the published key', async () => {
    const { status, body } = await get<Checkpoint>('/ledger/checkpoint');
    expect(status).toBe(200);
    expect(body.tree_size).toBe(N);
    const keys = parseKeysDocument((await api('GET', '/.well-known/runledger-keys.json')).body);
    const checked = checkSignedCheckpoint(body.checkpoint, {
      originSuffix: `/orgs/${ada.orgId}`,
      size: N,
      keys,
    });
    expect(checked.findings).toEqual([]);
    expect(checked.checkpoint?.origin).toBe(`runledger.test/orgs/${ada.orgId}`);
    const expected = merkleRoot(minted.map(leafOf));
    expect(body.root_hash).toBe(Buffer.from(expected).toString('hex'));
    expect(body.key_id).toBe(keys[0]?.keyId.toString(16).padStart(8, '0'));
  });

  it('serves inclusion proofs of every receipt at every size that contains it', async () => {
    for (let size = 1; size <= N; size += 1) {
      const root = merkleRoot(minted.slice(0, size).map(leafOf));
      for (const receipt of minted.slice(0, size)) {
        const { status, body } = await get<{
          leaf_index: number;
          tree_size: number;
          hashes: string[];
        }>(`/ledger/proof/inclusion?receipt_id=${receipt.receipt_id}&tree_size=${size}`);
        expect(status).toBe(200);
        expect(body).toMatchObject({ leaf_index: receipt.org_seq, tree_size: size });
        expect(
          verifyInclusion(receipt.org_seq, size, leafOf(receipt), hexes(body.hashes), root),
        ).toBe(true);
      }
    }
    const current = await get<{ tree_size: number }>(
      `/ledger/proof/inclusion?receipt_id=${minted[0]?.receipt_id}`,
    );
    expect(current.body.tree_size).toBe(N);
  });

  it('serves consistency proofs between every pair of sizes', async () => {
    for (let second = 1; second <= N; second += 1) {
      const rootSecond = merkleRoot(minted.slice(0, second).map(leafOf));
      for (let first = 1; first <= second; first += 1) {
        const rootFirst = merkleRoot(minted.slice(0, first).map(leafOf));
        const { status, body } = await get<{ first: number; second: number; hashes: string[] }>(
          `/ledger/proof/consistency?first=${first}&second=${second}`,
        );
        expect(status).toBe(200);
        expect(body).toMatchObject({ first, second });
        expect(verifyConsistency(first, second, hexes(body.hashes), rootFirst, rootSecond)).toBe(
          true,
        );
      }
    }
  });

  it.each([
    ['no receipt_id', '/ledger/proof/inclusion'],
    ['tree_size 0', `/ledger/proof/inclusion?receipt_id=RID&tree_size=0`],
    ['tree_size past the tree', `/ledger/proof/inclusion?receipt_id=RID&tree_size=${N + 1}`],
    ['tree_size not containing the receipt', `/ledger/proof/inclusion?receipt_id=RID3&tree_size=3`],
    ['tree_size not digits', `/ledger/proof/inclusion?receipt_id=RID&tree_size=1e3`],
    ['an unknown parameter', `/ledger/proof/inclusion?receipt_id=RID&size=3`],
    ['first 0', '/ledger/proof/consistency?first=0&second=3'],
    ['first after second', '/ledger/proof/consistency?first=4&second=3'],
    ['second past the tree', `/ledger/proof/consistency?first=1&second=${N + 1}`],
    ['no second', '/ledger/proof/consistency?first=1'],
    ['a negative size', '/ledger/proof/consistency?first=-1&second=3'],
  ])('answers 400 with a detail for %s', async (_, path) => {
    const filled = path
      .replace('RID3', minted[3]?.receipt_id ?? '')
      .replace('RID', minted[0]?.receipt_id ?? '');
    const { status, body } = await get<{ detail: string }>(filled);
    expect(status).toBe(400);
    expect(typeof body.detail).toBe('string');
  });

  it('says which bound a size broke: second for first, the tree size for second', async () => {
    const firstAfter = await get<{ detail: string }>('/ledger/proof/consistency?first=2&second=1');
    expect(firstAfter.body.detail).toBe('first must be an integer from 1 to second (1)');
    const pastTree = await get<{ detail: string }>(
      `/ledger/proof/consistency?first=1&second=${N + 1}`,
    );
    expect(pastTree.body.detail).toBe(`second must be an integer from 1 to the tree size (${N})`);
  });

  it('answers 404 for another organization’s receipt or an unknown one, 401 without a credential', async () => {
    const foreign = await get<{ detail: string }>(
      `/ledger/proof/inclusion?receipt_id=${bobs.receipt_id}`,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toMatch(/not found/);
    const unknown = await get('/ledger/proof/inclusion?receipt_id=rcpt-000000-00000000');
    expect(unknown.status).toBe(404);
    expect((await api('GET', '/ledger/checkpoint')).status).toBe(401);
  });

  it('keeps each organization its own tree and origin', async () => {
    const { body } = await get<Checkpoint>('/ledger/checkpoint', bob.token);
    expect(body.tree_size).toBe(1);
    expect(body.root_hash).toBe(Buffer.from(leafOf(bobs)).toString('hex'));
    expect(body.checkpoint.startsWith(`runledger.test/orgs/${bob.orgId}\n1\n`)).toBe(true);
  });

  it('exports a signed ledger that runledger-verify accepts with the key, and catches a re-hashed rewrite', async () => {
    const exported = await get('/ledger/export');
    expect(exported.status).toBe(200);
    const file = join(dir, 'ledger.ndjson');
    await writeFile(file, exported.text);
    const ok = await runNode(VERIFY, ['--key', keysFile, file]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);

    // Rewrite receipt 2's verdict and re-hash the chain from there, keeping the signed checkpoint.
    const [header, ...lines] = exported.text.trimEnd().split('\n');
    const rows = lines.map(
      (l) => JSON.parse(l) as Record<string, unknown> & { payload: Record<string, unknown> },
    );
    let parent = '0'.repeat(64);
    const rewritten = rows.map((row, seq) => {
      const payload = { ...row.payload, parent_hash: parent };
      if (seq === 2) Object.assign(payload, { run_title: 'rewritten afterwards' });
      const sha = receiptHash(payload);
      const line = formatExportLine({
        receipt_id: receiptId('rcpt', seq, sha),
        org_seq: seq,
        parent_hash: parent,
        receipt_sha256: sha,
        created_at: row.created_at as string,
        payload_text: canonicalJson(payload),
      });
      parent = sha;
      return line;
    });
    const head = {
      ...(JSON.parse(header as string) as Record<string, unknown>),
      head_sha256: parent,
    };
    const forged = join(dir, 'forged.ndjson');
    await writeFile(forged, [JSON.stringify(head), ...rewritten].join('\n') + '\n');
    const caught = await runNode(VERIFY, ['--key', keysFile, forged]);
    expect(caught.code).toBe(1);
    expect(caught.stdout + caught.stderr).toMatch(/root_mismatch/);
  });

  it('prints the checkpoint and proofs from the CLI, the consistency proof leading to the signed root', async () => {
    const env = { RUNLEDGER_URL: server.url, RUNLEDGER_TOKEN: ada.token };
    const note = await runNode(CLI, ['ledger', 'checkpoint'], env);
    expect(note.code).toBe(0);
    expect(note.stdout).toMatch(new RegExp(`^runledger\\.test/orgs/${ada.orgId}\n${N}\n`));
    const path = await runNode(
      CLI,
      ['ledger', 'proof', 'inclusion', minted[2]?.receipt_id ?? '', '--tree-size', '5', '--json'],
      env,
    );
    expect(JSON.parse(path.stdout)).toMatchObject({ leaf_index: 2, tree_size: 5 });
    const old = await runNode(
      CLI,
      ['ledger', 'proof', 'consistency', '3', String(N), '--json'],
      env,
    );
    expect(JSON.parse(old.stdout)).toMatchObject({ first: 3, second: N });
    // The proof leads from the root of the first 3 receipts to the root the server signed.
    const signed = (await get<Checkpoint>('/ledger/checkpoint')).body;
    const proof = JSON.parse(old.stdout) as { hashes: string[] };
    const root3 = merkleRoot(minted.slice(0, 3).map(leafOf));
    const rootN = fromHex(signed.root_hash) as Uint8Array;
    expect(verifyConsistency(3, N, hexes(proof.hashes), root3, rootN)).toBe(true);
    const bad = await runNode(CLI, ['ledger', 'proof', 'consistency', '0', '2'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/first/);
  });

  it('shares a receipt whose JSON runledger-verify checks alone, without the export', async () => {
    const receipt = minted[4] as MintedReceipt;
    const shared = await api<{ checkpoint: Checkpoint; inclusion_proof: { tree_size: number } }>(
      'GET',
      sharePath(receipt.share_url),
    );
    expect(shared.status).toBe(200);
    expect(shared.body.inclusion_proof).toMatchObject({
      receipt_id: receipt.receipt_id,
      leaf_index: 4,
    });
    expect(shared.body.checkpoint.tree_size).toBe(shared.body.inclusion_proof.tree_size);
    const file = join(dir, 'share.json');
    await writeFile(file, shared.text);
    const ok = await runNode(VERIFY, ['receipt', '--key', keysFile, file]);
    expect(ok.code).toBe(0);
    const tampered = JSON.parse(shared.text) as { inclusion_proof: { hashes: string[] } };
    tampered.inclusion_proof.hashes[0] = 'f'.repeat(64);
    await writeFile(file, JSON.stringify(tampered));
    const caught = await runNode(VERIFY, ['receipt', '--key', keysFile, file]);
    expect(caught.code).toBe(1);
  });
});

describe('the signing key and the logs', () => {
  it('never writes SIGNING_KEY (or its seed) into any log line at any level', async () => {
    const log = captureLog();
    const skey = formatSkey('runledger.test', new Uint8Array(32).fill(11));
    const seed = skey.split('+').slice(4).join('+');
    const server = await startTestServer({ SIGNING_KEY: skey }, { logger: log.logger });
    try {
      const { api } = await apiClient(server.url);
      const ada = await signIn(api, 'ada@example.com');
      await mint(
        api,
        ada.token,
        await approvedRun(api, ada.token, await newProject(api, ada.token)),
      );
      expect((await api('GET', '/ledger/checkpoint', { token: ada.token })).status).toBe(200);
      expect((await api('GET', '/ledger/export', { token: ada.token })).status).toBe(200);
      expect(
        (await api('GET', '/ledger/proof/consistency?first=0&second=1', { token: ada.token }))
          .status,
      ).toBe(400);
    } finally {
      await server.close();
    }
    expect(log.lines().length).toBeGreaterThan(0);
    expect(log.leaking([skey, seed])).toEqual([]);
  });
});
