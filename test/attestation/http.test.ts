import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseKeysDocument, verifyAttestation, type TrustedKey } from '@runledger/verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { engines } from '../helpers/postgres.js';
import { decide, newProject, sharePath } from '../helpers/runs.js';
import { openRawDb } from '../helpers/sqlite.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { VERIFY, runNode } from '../cli/run-cli.js';
import { auditedRun, receiptedRun, type Outcome, type Receipted } from './fixtures.js';
import { runPython } from './run-python.js';
import { bundleFromJSON, sigstoreVerifier, toSignedEntity, type PublishedKey } from './sigstore.js';
import { schemaErrors, statementOf } from './validate.js';

interface Envelope {
  payloadType: string;
  payload: string;
  signatures: { keyid: string; sig: string }[];
}
interface Statement {
  subject: { name: string; digest: { sha256: string } }[];
  predicate: {
    verificationResult: string;
    verifiedLevels: string[];
    policy: { name: string; uri: string; digest: { sha256: string } };
    resourceUri: string;
    inputAttestations: { digest: { sha256: string } }[];
    [extension: string]: unknown;
  };
}

const EXTENSION = 'https://runledger.dev/attestation/receipt/v1';

describe.each(engines)('receipt attestations over HTTP on %s', (engine) => {
  let server: TestServer;
  let api: Api;
  let ada: SignedIn;
  let bob: SignedIn;
  let keys: TrustedKey[];
  let keyId: string;
  const receipted = {} as Record<Outcome, Receipted>;
  const unreceipted = {} as Record<'rejected' | 'escalated' | 'approved', string>;

  beforeAll(async () => {
    server = await startTestServer({}, { engine });
    ({ api } = await apiClient(server.url));
    ada = await signIn(api, 'ada@example.com');
    bob = await signIn(api, 'bob@example.com');
    const project = await newProject(api, ada.token);
    for (const outcome of ['pass', 'risk', 'fail'] as const)
      receipted[outcome] = await receiptedRun(api, ada.token, project, outcome);
    for (const decision of ['rejected', 'escalated', 'approved'] as const) {
      const runId = await auditedRun(api, ada.token, project, 'risk');
      await decide(api, ada.token, runId, decision);
      unreceipted[decision] = runId;
    }
    const document = await api('GET', '/.well-known/runledger-keys.json');
    keys = parseKeysDocument(document.body);
    keyId = (document.body as { keys: { key_id: string }[] }).keys[0]!.key_id;
  });
  afterAll(async () => server?.close());

  const byRun = (runId: string, token = ada.token) =>
    api<Envelope>('GET', `/runs/${runId}/attestation`, { token });
  const byShare = (r: Receipted) =>
    api<Envelope>('GET', `${sharePath(r.receipt.share_url)}/attestation`);
  const shareJson = async (r: Receipted) => (await api('GET', sharePath(r.receipt.share_url))).body;

  it('answers a signed envelope by run and by share link that the published key and the share JSON verify', async () => {
    for (const outcome of ['pass', 'risk', 'fail'] as const) {
      const r = receipted[outcome];
      const mine = await byRun(r.runId);
      expect(mine.status, mine.text).toBe(200);
      const shared = await byShare(r);
      expect(shared.status, shared.text).toBe(200);
      expect(shared.headers.get('cache-control')).toBe('no-store');
      // The manual clock stands still, so both sign the same checkpoint: the same bytes.
      expect(shared.text).toBe(mine.text);
      expect(mine.body.payloadType).toBe('application/vnd.in-toto+json');
      expect(mine.body.signatures).toEqual([{ keyid: keyId, sig: expect.any(String) }]);
      expect(schemaErrors(mine.body)).toEqual([]);
      const result = verifyAttestation(mine.body, { keys, share: await shareJson(r) });
      expect(result.findings).toEqual([]);
      expect(result).toMatchObject({ ok: true, receipt_id: r.receipt.receipt_id });
      expect(result.authorship.status).toBe('verified');
    }
  });

  it('states PASSED only for a pass verdict; risk and fail receipts are FAILED', async () => {
    const predicates = await Promise.all(
      (['pass', 'risk', 'fail'] as const).map(async (o) => {
        const s = statementOf<Statement>((await byRun(receipted[o].runId)).body);
        return s.predicate;
      }),
    );
    expect(predicates.map((p) => [p.verificationResult, p.verifiedLevels])).toEqual([
      ['PASSED', ['RUNLEDGER_FLIGHT_SHEET:agent-task-report@1.0.0']],
      ['FAILED', ['FAILED']],
      ['FAILED', ['FAILED']],
    ]);
    expect(
      predicates.map((p) => (p[EXTENSION] as { verdict: { outcome: string } }).verdict.outcome),
    ).toEqual(['pass', 'risk', 'fail']);
  });

  it('names the receipt, the submission, the sheet version, the evidence and the share link', async () => {
    const r = receipted.pass;
    const statement = statementOf<Statement>((await byRun(r.runId)).body);
    const share = (await shareJson(r)) as {
      payload: {
        submission_sha256: string;
        flight_sheet: { id: string; sha256: string };
        evidence: { sha256: string }[];
        org_seq: number;
      };
    };
    expect(statement.subject).toEqual([
      { name: r.receipt.receipt_id, digest: { sha256: r.receipt.receipt_sha256 } },
      { name: `${r.runId}/submission`, digest: { sha256: share.payload.submission_sha256 } },
    ]);
    expect(statement.predicate.policy).toEqual({
      name: 'agent-task-report@1.0.0',
      uri: `http://runledger.test/flight-sheets/${share.payload.flight_sheet.id}`,
      digest: { sha256: share.payload.flight_sheet.sha256 },
    });
    expect(statement.predicate.inputAttestations.map((a) => a.digest.sha256)).toEqual(
      share.payload.evidence.map((e) => e.sha256),
    );
    expect(statement.predicate.resourceUri).toBe(r.receipt.share_url);
    expect(statement.predicate[EXTENSION]).toMatchObject({
      log: { origin: `runledger.test/orgs/${ada.orgId}`, index: r.receipt.org_seq, treeSize: 3 },
    });
  });

  it('answers 404 for a rejected, an escalated and an approved run without a receipt', async () => {
    for (const runId of Object.values(unreceipted)) {
      const answer = await byRun(runId);
      expect(answer.status, answer.text).toBe(404);
      expect(answer.body).toEqual({ detail: 'receipt not found' });
      expect(
        (await api('GET', `/runs/${runId}/attestation/sigstore`, { token: ada.token })).status,
      ).toBe(404);
    }
  });

  it('keeps a run’s attestation to its organization and asks for a credential', async () => {
    const r = receipted.pass;
    expect((await byRun(r.runId, bob.token)).body).toEqual({ detail: 'run not found' });
    expect((await byRun('run_unknown')).status).toBe(404);
    expect((await api('GET', `/runs/${r.runId}/attestation`)).status).toBe(401);
  });

  it('answers 404 for an unknown or malformed share token', async () => {
    for (const token of ['A'.repeat(43), 'short', '%20'.repeat(3)]) {
      const answer = await api('GET', `/share/${token}/attestation`);
      expect(answer.status, token).toBe(404);
      expect(answer.body).toEqual({ detail: 'receipt not found' });
    }
  });
});

describe('receipt attestations checked by other verifiers', () => {
  let server: TestServer;
  let api: Api;
  let ada: SignedIn;
  let dir: string;
  let keysFile: string;
  let pass: Receipted;
  let risk: Receipted;

  const file = (name: string) => join(dir, name);
  const envelopeOf = async (r: Receipted) =>
    (await api<Envelope>('GET', `/runs/${r.runId}/attestation`, { token: ada.token })).body;

  beforeAll(async () => {
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    dir = await mkdtemp(join(tmpdir(), 'runledger-attest-'));
    ada = await signIn(api, 'ada@example.com');
    const project = await newProject(api, ada.token);
    pass = await receiptedRun(api, ada.token, project, 'pass');
    risk = await receiptedRun(api, ada.token, project, 'risk');
    keysFile = file('keys.json');
    await writeFile(keysFile, (await api('GET', '/.well-known/runledger-keys.json')).text);
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is listed in /openapi.json', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    for (const path of [
      '/share/{share_token}/attestation',
      '/share/{share_token}/attestation/sigstore',
      '/runs/{run_id}/attestation',
      '/runs/{run_id}/attestation/sigstore',
    ])
      expect(doc.paths[path], path).toBeDefined();
  });

  it('the schemas refuse a statement without the VSA’s required fields', async () => {
    const envelope = await envelopeOf(pass);
    const statement = statementOf<Statement>(envelope);
    const { verificationResult: _dropped, ...rest } = statement.predicate;
    const stripped = {
      ...envelope,
      payload: Buffer.from(JSON.stringify({ ...statement, predicate: rest })).toString('base64'),
    };
    expect(schemaErrors(stripped)).toEqual([expect.stringContaining('verificationResult')]);
  });

  it('in-toto’s securesystemslib verifies the envelopes with the published key; a changed byte anywhere fails', async () => {
    const good = [file('pass.json'), file('risk.json')];
    await writeFile(good[0]!, JSON.stringify(await envelopeOf(pass)));
    await writeFile(good[1]!, JSON.stringify(await envelopeOf(risk)));
    const ok = await runPython([keysFile, ...good]);
    expect(ok.stdout.trim().split('\n'), ok.stderr).toEqual(['OK', 'OK']);
    expect(ok.code).toBe(0);

    // One changed byte in each part the signature covers, and in the signature itself.
    const envelope = await envelopeOf(pass);
    const body = Buffer.from(envelope.payload, 'base64');
    const sig = Buffer.from(envelope.signatures[0]!.sig, 'base64');
    const flip = (bytes: Buffer, at: number) => {
      const copy = Buffer.from(bytes);
      copy[at] = copy[at]! ^ 0x01;
      return copy.toString('base64');
    };
    const variants = [
      ...[0, 1, Math.floor(body.length / 2), body.length - 1].map((at) => ({
        ...envelope,
        payload: flip(body, at),
      })),
      ...[0, 31, 32, 63].map((at) => ({
        ...envelope,
        signatures: [{ ...envelope.signatures[0]!, sig: flip(sig, at) }],
      })),
      { ...envelope, payloadType: 'application/vnd.in-toto+jsoN' },
    ];
    const files = await Promise.all(
      variants.map(async (v, i) => {
        await writeFile(file(`bad-${i}.json`), JSON.stringify(v));
        return file(`bad-${i}.json`);
      }),
    );
    const bad = await runPython([keysFile, ...files]);
    expect(bad.code).toBe(1);
    const lines = bad.stdout.trim().split('\n');
    expect(lines).toHaveLength(variants.length);
    for (const line of lines) expect(line).toMatch(/^FAIL /);
  });

  it('runledger-verify attestation: OK for the served file, TAMPERED for an edited one', async () => {
    const envelopePath = file('cli.json');
    const sharePathFile = file('share.json');
    await writeFile(envelopePath, JSON.stringify(await envelopeOf(risk)));
    await writeFile(sharePathFile, (await api('GET', sharePath(risk.receipt.share_url))).text);
    const good = await runNode(VERIFY, [
      'attestation',
      '--key',
      keysFile,
      '--share',
      sharePathFile,
      envelopePath,
    ]);
    expect(good.code, good.stderr + good.stdout).toBe(0);
    expect(good.stdout).toContain(`receipt ${risk.receipt.receipt_id}, verificationResult FAILED`);
    expect(good.stdout).toContain('OK: the envelope signature');
    expect(good.stdout).toContain('AUTHORSHIP: signed by runledger.test');

    // A forger who cannot sign edits the statement: FAILED → PASSED.
    const envelope = await envelopeOf(risk);
    const edited = Buffer.from(envelope.payload, 'base64')
      .toString('utf8')
      .replace('"FAILED"', '"PASSED"');
    await writeFile(
      envelopePath,
      JSON.stringify({ ...envelope, payload: Buffer.from(edited).toString('base64') }),
    );
    const bad = await runNode(VERIFY, ['attestation', '--json', '--key', keysFile, envelopePath]);
    expect(bad.code).toBe(1);
    const result = JSON.parse(bad.stdout) as { ok: boolean; findings: { code: string }[] };
    expect(result.findings.map((f) => f.code)).toEqual([
      'envelope_signature_invalid',
      'statement_mismatch',
    ]);

    const noKey = await runNode(VERIFY, ['attestation', envelopePath]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('attestation needs --key');
  });

  it('@sigstore/verify verifies the Sigstore bundle with our public key and refuses an edited one', async () => {
    const answer = await api<{
      dsseEnvelope: Envelope;
      verificationMaterial: { publicKey: { hint: string } };
    }>('GET', `${sharePath(pass.receipt.share_url)}/attestation/sigstore`);
    expect(answer.status, answer.text).toBe(200);
    const verifier = sigstoreVerifier(
      (JSON.parse(await readFile(keysFile, 'utf8')) as { keys: PublishedKey[] }).keys,
    );
    expect(() => verifier.verify(toSignedEntity(bundleFromJSON(answer.body)))).not.toThrow();
    // With Sigstore's default thresholds (one timestamp, one log entry) the same bundle is refused:
    // it has neither (docs/attestations.md).
    const defaults = sigstoreVerifier(
      (JSON.parse(await readFile(keysFile, 'utf8')) as { keys: PublishedKey[] }).keys,
      {},
    );
    expect(() => defaults.verify(toSignedEntity(bundleFromJSON(answer.body)))).toThrow(
      'expected 1 timestamps, got 0',
    );
    expect(answer.body.dsseEnvelope).toEqual(await envelopeOf(pass));
    const edited = structuredClone(answer.body);
    edited.dsseEnvelope.payload = Buffer.from(
      Buffer.from(edited.dsseEnvelope.payload, 'base64')
        .toString('utf8')
        .replace('"PASSED"', '"FAILED"'),
    ).toString('base64');
    expect(() => verifier.verify(toSignedEntity(bundleFromJSON(edited)))).toThrow(
      /signature verification failed/,
    );
  });

  it('signs nothing for a receipt whose stored bytes no longer verify (409)', async () => {
    const db = await openRawDb(server.dataDir);
    try {
      await db.run(
        `UPDATE receipts SET payload_text = replace(payload_text, '"agent log"', '"agent loG"') WHERE receipt_id = ?`,
        [pass.receipt.receipt_id],
      );
    } finally {
      await db.close();
    }
    const answer = await api('GET', `/runs/${pass.runId}/attestation`, { token: ada.token });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      detail: `receipt ${pass.receipt.receipt_id} does not verify; no attestation is signed for it`,
    });
    expect(
      (await api('GET', `${sharePath(pass.receipt.share_url)}/attestation/sigstore`)).status,
    ).toBe(409);
  });
});
