import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  formatSkey,
  formatVkey,
  noteSigner,
  parseNote,
  parseCheckpoint,
} from '@runledger/verify/note';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { parsePrometheus } from '../helpers/prometheus.js';
import { approvedRun, mint, newProject } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openRawDb } from '../helpers/sqlite.js';
import {
  buildWitness,
  initWitness,
  startWitness,
  type WitnessProcess,
} from '../helpers/witness.js';
import { VERIFY, runNode } from '../cli/run-cli.js';

/*
 * A server restored from an older copy of its database mints a history that contradicts what the
 * witnesses already cosigned (docs/witnesses.md, "History after a restore"): no witness cosigns it.
 */
const seed = new Uint8Array(32).fill(33);
const logVkey = formatVkey('runledger.test', noteSigner('runledger.test', seed).publicKey);
let dir: string;
let witnesses: { process: WitnessProcess; vkey: string }[];

beforeAll(async () => {
  buildWitness();
  dir = mkdtempSync(join(tmpdir(), 'runledger-restored-'));
  witnesses = [];
  for (const name of ['w1', 'w2']) {
    const vkey = initWitness(join(dir, name), `witness.test/${name}`);
    witnesses.push({
      process: await startWitness(join(dir, name), [`runledger.test/orgs/*=${logVkey}`]),
      vkey,
    });
  }
});
afterAll(async () => {
  for (const w of witnesses ?? []) await w.process.stop();
  rmSync(dir, { recursive: true, force: true });
});

const env = (dataDir: string) => ({
  DATA_DIR: dataDir,
  SIGNING_KEY: formatSkey('runledger.test', seed),
  WITNESSES: JSON.stringify(witnesses.map((w) => ({ url: w.process.url, vkey: w.vkey }))),
  WITNESS_INTERVAL_SECONDS: '0.2',
});

const cosigned = (note: string) =>
  note.split('\n').filter((l) => l.startsWith('\u2014 witness.test/')).length;
const sizeOf = (note: string) => parseCheckpoint(parseNote(note).text).size;

async function mintSome(api: Api, token: string, n: number) {
  const project = await newProject(api, token, `p${Math.random()}`);
  for (let i = 0; i < n; i += 1) await mint(api, token, await approvedRun(api, token, project));
}

async function waitCosigned(api: Api, token: string, size: number) {
  for (;;) {
    const { body } = await api<{ checkpoint: string; tree_size: number }>(
      'GET',
      '/ledger/checkpoint',
      { token },
    );
    if (body.tree_size === size && cosigned(body.checkpoint) === 2) return;
    await sleep(100);
  }
}

async function refusals(server: TestServer): Promise<number> {
  const text = await (await fetch(`${server.metricsUrl}/metrics`)).text();
  return parsePrometheus(text)
    .filter(
      (s) => s.name === 'runledger_witness_requests_total' && s.labels['outcome'] !== 'cosigned',
    )
    .reduce((sum, s) => sum + s.value, 0);
}

describe('a server restored from an older database', () => {
  let restored: TestServer | undefined;
  afterAll(async () => restored?.close());

  it('cannot get a cosignature for a history contradicting what the witnesses saw', async () => {
    const dirA = join(dir, 'a');
    const dirB = join(dir, 'b');
    mkdirSync(dirA);
    mkdirSync(dirB);
    const original = await startTestServer(env(dirA));
    const { api } = await apiClient(original.url);
    const ada = await signIn(api, 'ada@example.com');
    await mintSome(api, ada.token, 2);
    await waitCosigned(api, ada.token, 2);
    const raw = await openRawDb(dirA);
    await raw.exec(`VACUUM INTO '${join(dirB, 'runledger.sqlite')}'`);
    await raw.close();
    await mintSome(api, ada.token, 2);
    await waitCosigned(api, ada.token, 4);
    await original.close();

    restored = await startTestServer(env(dirB));
    const b = (await apiClient(restored.url)).api;
    const adaB = await signIn(b, 'ada@example.com');
    expect(adaB.orgId).toBe(ada.orgId);
    await mintSome(b, adaB.token, 3);
    while ((await refusals(restored)) < 2) await sleep(100);
    const { body } = await b<{ checkpoint: string }>('GET', '/ledger/checkpoint', {
      token: adaB.token,
    });
    // What it serves is the last checkpoint cosigned before the backup, never its new history.
    expect(sizeOf(body.checkpoint)).toBe(2);
    const exported = await b('GET', '/ledger/export', { token: adaB.token });
    const file = join(dir, 'restored.ndjson');
    writeFileSync(file, exported.text);
    expect(cosigned(JSON.parse(exported.text.split('\n')[0]!).checkpoint)).toBe(0);
    const args = witnesses.flatMap((w) => ['--witness', w.vkey]);
    expect((await runNode(VERIFY, [...args, '--witness-threshold', '1', file])).code).toBe(1);
    for (const w of witnesses) {
      const answer = await fetch(`${w.process.url}/add-checkpoint`, {
        method: 'POST',
        body: `old 0\n\n${body.checkpoint}`,
      });
      expect([answer.status, await answer.text()]).toEqual([409, '4\n']);
    }
  }, 180_000);
});
