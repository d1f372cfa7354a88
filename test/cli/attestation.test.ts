import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptedRun, type Receipted } from '../attestation/fixtures.js';
import { signIn } from '../helpers/auth.js';
import { apiClient } from '../helpers/openapi.js';
import { newProject } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildCli, CLI, runNode, VERIFY } from './run-cli.js';

describe('runledger runs attestation', () => {
  let server: TestServer;
  let home: string;
  let env: Record<string, string>;
  let pass: Receipted;
  let keysFile: string;

  beforeAll(async () => {
    await buildCli();
    server = await startTestServer();
    home = await mkdtemp(join(tmpdir(), 'runledger-cli-attest-'));
    const { api } = await apiClient(server.url);
    const ada = await signIn(api, 'ada@example.com');
    pass = await receiptedRun(api, ada.token, await newProject(api, ada.token), 'pass');
    env = {
      RUNLEDGER_CONFIG: join(home, 'config.json'),
      RUNLEDGER_URL: server.url,
      RUNLEDGER_TOKEN: ada.token,
    };
    keysFile = join(home, 'keys.json');
    await writeFile(keysFile, (await api('GET', '/.well-known/runledger-keys.json')).text);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('writes the signed envelope that runledger-verify accepts, and a tampered copy fails', async () => {
    const out = join(home, 'run.intoto.json');
    const saved = await runNode(CLI, ['runs', 'attestation', pass.runId, '--out', out], env);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toBe(`wrote the attestation to ${out}\n`);
    expect(saved.stderr).toContain(`runledger-verify attestation --key keys.json ${out}`);
    const good = await runNode(VERIFY, ['attestation', '--key', keysFile, out]);
    expect(good.code, good.stdout + good.stderr).toBe(0);
    expect(good.stdout).toContain(`receipt ${pass.receipt.receipt_id}, verificationResult PASSED`);

    const envelope = JSON.parse(await readFile(out, 'utf8')) as { payload: string };
    const body = Buffer.from(envelope.payload, 'base64');
    body[body.length - 2] = body[body.length - 2]! ^ 0x01;
    await writeFile(out, JSON.stringify({ ...envelope, payload: body.toString('base64') }));
    const bad = await runNode(VERIFY, ['attestation', '--key', keysFile, out]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/TAMPERED|bad_attestation/);
  });

  it('prints the envelope, or with --sigstore the bundle, on stdout', async () => {
    const printed = await runNode(CLI, ['runs', 'attestation', pass.runId], env);
    expect(printed.code, printed.stderr).toBe(0);
    const envelope = JSON.parse(printed.stdout) as { payloadType: string };
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
    const bundle = await runNode(CLI, ['runs', 'attestation', pass.runId, '--sigstore'], env);
    expect(bundle.code, bundle.stderr).toBe(0);
    expect(JSON.parse(bundle.stdout)).toMatchObject({
      mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
      dsseEnvelope: envelope,
    });
  });

  it('exits with the not-found code and the server’s detail for a run without a receipt', async () => {
    const missing = await runNode(CLI, ['runs', 'attestation', 'run_unknown'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('run not found');
  });
});
