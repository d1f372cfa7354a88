import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompactTree, consistencyProof, leafHash } from '@runledger/verify/merkle';
import {
  formatCheckpoint,
  formatVkey,
  noteSigner,
  signNote,
  type NoteSigner,
} from '@runledger/verify/note';
import { base64Encode } from '@runledger/verify/note';
import { parseCosignerVkey, verifyCosignatures } from '@runledger/verify/witness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildWitness,
  initWitness,
  startWitness,
  type WitnessProcess,
} from '../helpers/witness.js';

/** A log of `n` leaves; `fork` gives another history from leaf `forkAt` on. */
function logTree(n: number, fork?: { at: number }) {
  const tree = CompactTree.empty();
  const nodes = new Map<string, Uint8Array>();
  for (let i = 0; i < n; i += 1) {
    const data = new Uint8Array(32).fill(i % 251);
    if (fork !== undefined && i >= fork.at) data[0] = 0xff;
    tree
      .append(leafHash(data))
      .forEach((node) => nodes.set(`${node.level}/${node.index}`, node.hash));
  }
  const getNode = (l: number, i: number) => nodes.get(`${l}/${i}`)!;
  return {
    root: tree.root(),
    proofFrom: (m: number) => (m === 0 || m === n ? [] : consistencyProof(m, n, getNode)),
  };
}

const log = noteSigner('runledger.example', new Uint8Array(32).fill(4));
const impostor = noteSigner('runledger.example', new Uint8Array(32).fill(5));
const ORIGIN = 'runledger.example/orgs/org_a';

function checkpointNote(
  n: number,
  signer: NoteSigner = log,
  origin = ORIGIN,
  fork?: { at: number },
) {
  const text = formatCheckpoint({
    origin,
    size: n,
    rootHash: logTree(n, fork).root,
    extensions: [],
  });
  return signNote(text, [signer]);
}

function body(
  old: number,
  n: number,
  options: {
    fork?: { at: number };
    signer?: NoteSigner;
    origin?: string;
    proof?: Uint8Array[];
  } = {},
) {
  const proof = options.proof ?? logTree(n, options.fork).proofFrom(old);
  return (
    `old ${old}\n` +
    proof.map((h) => base64Encode(h) + '\n').join('') +
    '\n' +
    checkpointNote(n, options.signer, options.origin, options.fork)
  );
}

/** Cosignature/v1 checked the way the specification writes it, with node:crypto only. */
function independentlyVerified(note: string, line: string, vkey: string): boolean {
  // name+hash+key: the key's base64 may itself hold '+', so only the first two split.
  const [name, hash] = vkey.split('+', 2) as [string, string];
  const keyB64 = vkey.slice(name.length + hash.length + 2);
  const publicKey = Buffer.from(keyB64, 'base64').subarray(1);
  const blob = Buffer.from(/^\u2014 \S+ (\S+)\n$/.exec(line)![1]!, 'base64');
  const keyId = createHash('sha256')
    .update(Buffer.concat([Buffer.from(`${name}\n`), Buffer.from([4]), publicKey]))
    .digest()
    .subarray(0, 4);
  if (!blob.subarray(0, 4).equals(keyId)) return false;
  const text = note.slice(0, note.lastIndexOf('\n\n') + 1);
  const message = Buffer.from(`cosignature/v1\ntime ${blob.readBigUInt64BE(4)}\n${text}`);
  const key = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]),
    format: 'der',
    type: 'spki',
  });
  return verify(null, message, key, blob.subarray(12));
}

let dir: string;
let vkey: string;
let witness: WitnessProcess;
const logs = [`runledger.example/orgs/*=${formatVkey(log.name, log.publicKey)}`];

const post = (text: string) =>
  fetch(`${witness.url}/add-checkpoint`, { method: 'POST', body: text });

beforeAll(async () => {
  buildWitness();
  dir = mkdtempSync(join(tmpdir(), 'runledger-witness-'));
  vkey = initWitness(dir, 'witness.test/w1');
  witness = await startWitness(dir, logs);
});

afterAll(async () => {
  await witness?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('runledger-witness (C2SP tlog-witness)', () => {
  it('makes a key file readable by its owner only and refuses a second init', () => {
    expect(parseCosignerVkey(vkey).name).toBe('witness.test/w1');
    expect(statSync(join(dir, 'witness-key')).mode & 0o077).toBe(0);
    expect(() => initWitness(dir, 'again')).toThrow();
  });

  it('cosigns a first checkpoint with old 0, and the cosignature verifies independently', async () => {
    const response = await post(body(0, 5));
    expect(response.status).toBe(200);
    const line = await response.text();
    const note = checkpointNote(5);
    expect(independentlyVerified(note, line, vkey)).toBe(true);
    expect(verifyCosignatures(note + line, [parseCosignerVkey(vkey)]).valid).toHaveLength(1);
  });

  it('answers 409 with its size as text/x.tlog.size when the old size is not the one it cosigned', async () => {
    const response = await post(body(0, 8));
    expect(response.status).toBe(409);
    expect(response.headers.get('content-type')).toBe('text/x.tlog.size');
    expect(await response.text()).toBe('5\n');
  });

  it('answers 422 for a consistency proof that does not verify, then cosigns with a good one', async () => {
    const bad = logTree(8, { at: 2 }).proofFrom(5);
    expect((await post(body(5, 8, { proof: bad }))).status).toBe(422);
    expect((await post(body(5, 8))).status).toBe(200);
  });

  it('gives a forking log no cosignature: same size with another root, a smaller size, another history', async () => {
    const sameSize = await post(body(8, 8, { fork: { at: 6 } }));
    expect(sameSize.status).toBe(409);
    expect(await sameSize.text()).toBe('8\n');
    expect((await post(body(8, 6, { proof: [] }))).status).toBe(400);
    const smaller = await post(body(6, 6));
    expect([smaller.status, await smaller.text()]).toEqual([409, '8\n']);
    expect((await post(body(8, 12, { fork: { at: 3 } }))).status).toBe(422);
    expect((await post(body(8, 8))).status).toBe(200);
  });

  it('answers 404 for an unknown origin and 403 for a checkpoint the log did not sign', async () => {
    expect((await post(body(0, 3, { origin: 'elsewhere.example/log' }))).status).toBe(404);
    expect((await post(body(0, 3, { origin: 'runledger.example/orgs/' }))).status).toBe(404);
    expect((await post(body(8, 9, { signer: impostor }))).status).toBe(403);
    expect((await post(body(0, 3, { origin: 'runledger.example/orgs/org_b' }))).status).toBe(200);
  });

  it('answers 400 for malformed requests and 404/405 elsewhere', async () => {
    for (const text of [
      '',
      'old 01\n\n' + checkpointNote(9),
      'old 8\nnot-a-hash\n\n' + checkpointNote(9),
      'old 8\n\nnot a note\n',
      'old 0\nAAAA\n\n' + checkpointNote(1),
    ])
      expect((await post(text)).status).toBe(400);
    expect((await post(body(0, 1, { proof: [new Uint8Array(32)] }))).status).toBe(400);
    expect((await fetch(`${witness.url}/add-checkpoint`)).status).toBe(405);
    expect((await fetch(`${witness.url}/other`, { method: 'POST' })).status).toBe(404);
  });

  it('keeps its state across a restart', async () => {
    await witness.stop();
    witness = await startWitness(dir, logs);
    const response = await post(body(0, 9));
    expect([response.status, await response.text()]).toEqual([409, '8\n']);
    expect((await post(body(8, 9))).status).toBe(200);
  });

  it('never rolls back under concurrent requests: the recorded size only grows', async () => {
    const sizes = [10, 11, 12, 13, 14];
    const answers = await Promise.all(sizes.map((n) => post(body(9, n))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const winner = sizes[answers.findIndex((a) => a.status === 200)]!;
    const next = await post(body(0, 20));
    expect(await next.text()).toBe(`${winner}\n`);
  });
});
