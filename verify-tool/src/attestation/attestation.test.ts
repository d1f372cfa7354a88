import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Decode, base64Encode } from '../note/base64.js';
import { formatVkey, noteSigner } from '../note/keys.js';
import { trustVkey } from '../note/keyring.js';
import { attestationFixture, attestedChain, envelopeSignerOf } from '../testing/attestation.js';
import { attestReceipt } from './attest.js';
import { pae, signEnvelope, type DsseEnvelope } from './dsse.js';
import { RUNLEDGER_EXTENSION, VERIFIER_VERSION, type ReceiptStatement } from './statement.js';
import { verifyAttestation } from './verify.js';

const owner = noteSigner('runledger.example', new Uint8Array(32).fill(7));
const stranger = noteSigner('runledger.example', new Uint8Array(32).fill(8));
const keys = [trustVkey(formatVkey(owner.name, owner.publicKey))];
const ORG = 'org_att';
const entries = attestedChain(9, ORG);
const text = new TextDecoder();
const encode = new TextEncoder();

function attested(seq: number, signer = owner) {
  const { share, input } = attestationFixture(entries, ORG, seq, owner);
  return { share, envelope: attestReceipt(input, envelopeSignerOf(signer)) };
}

const statementOf = (e: DsseEnvelope) =>
  JSON.parse(text.decode(base64Decode(e.payload)!)) as ReceiptStatement;

/** The statement changed by `edit`, serialized and signed again by `signer`. */
function resigned(e: DsseEnvelope, edit: (s: ReceiptStatement) => void, signer = owner) {
  const statement = statementOf(e);
  edit(statement);
  return signEnvelope(
    e.payloadType,
    encode.encode(JSON.stringify(statement)),
    envelopeSignerOf(signer),
  );
}

const codes = (r: { findings: { code: string }[] }) => r.findings.map((f) => f.code);

describe('DSSE pre-authentication encoding', () => {
  it('matches the specification’s example', () => {
    expect(text.decode(pae('http://example.com/HelloWorld', encode.encode('hello world')))).toBe(
      'DSSEv1 29 http://example.com/HelloWorld 11 hello world',
    );
  });

  it('counts bytes, not characters', () => {
    expect(text.decode(pae('t', encode.encode('é')))).toBe('DSSEv1 1 t 2 é');
  });
});

describe('a receipt attestation', () => {
  it('verifies with the published key, alone and against its share JSON', () => {
    for (const seq of [0, 4, 8]) {
      const { share, envelope } = attested(seq);
      const alone = verifyAttestation(envelope, { keys });
      expect(alone, JSON.stringify(alone.findings)).toMatchObject({
        ok: true,
        share_checked: false,
      });
      expect(alone.authorship.status).toBe('verified');
      const withShare = verifyAttestation(envelope, { keys, share });
      expect(withShare.ok, JSON.stringify(withShare.findings)).toBe(true);
      expect(withShare.receipt_id).toBe(entries[seq]!.receipt_id);
    }
  });

  it('maps pass to PASSED with the sheet level, risk and fail to FAILED', () => {
    const results = [0, 1, 2].map((seq) => statementOf(attested(seq).envelope).predicate);
    expect(results.map((p) => [p.verificationResult, p.verifiedLevels])).toEqual([
      ['PASSED', ['RUNLEDGER_FLIGHT_SHEET:reconciliation@3.0.0']],
      ['FAILED', ['FAILED']],
      ['FAILED', ['FAILED']],
    ]);
    expect(results.map((p) => p[RUNLEDGER_EXTENSION].verdict.outcome)).toEqual([
      'pass',
      'risk',
      'fail',
    ]);
  });

  it('names the receipt and the submission as subjects and its place in the log', () => {
    const { envelope } = attested(5);
    const s = statementOf(envelope);
    const payload = JSON.parse(entries[5]!.payload_text) as { submission_sha256: string };
    expect(s.subject).toEqual([
      { name: entries[5]!.receipt_id, digest: { sha256: entries[5]!.receipt_sha256 } },
      {
        name: expect.stringMatching(/\/submission$/),
        digest: { sha256: payload.submission_sha256 },
      },
    ]);
    const log = s.predicate[RUNLEDGER_EXTENSION].log;
    expect(log).toMatchObject({ origin: `runledger.example/orgs/${ORG}`, index: 5, treeSize: 9 });
    expect(s.predicate.verifier.version).toEqual({ runledger: VERIFIER_VERSION });
  });

  it('fails a keyid no trusted key has, and another key’s signature under our keyid', () => {
    expect(codes(verifyAttestation(attested(3, stranger).envelope, { keys }))).toEqual([
      'key_unknown',
    ]);
    const { input } = attestationFixture(entries, ORG, 3, owner);
    const impostor = attestReceipt(input, {
      keyid: envelopeSignerOf(owner).keyid,
      sign: (m) => stranger.sign(m),
    });
    expect(codes(verifyAttestation(impostor, { keys }))).toEqual(['envelope_signature_invalid']);
  });

  it('finds any flipped bit of the statement or the signature', () => {
    const { envelope } = attested(4);
    const body = base64Decode(envelope.payload)!;
    const sig = base64Decode(envelope.signatures[0]!.sig)!;
    fc.assert(
      fc.property(fc.boolean(), fc.nat(), fc.integer({ min: 0, max: 7 }), (inBody, at, bit) => {
        const bytes = Uint8Array.from(inBody ? body : sig);
        const i = at % bytes.length;
        bytes[i] = (bytes[i] as number) ^ (1 << bit);
        const changed: DsseEnvelope = inBody
          ? { ...envelope, payload: base64Encode(bytes) }
          : { ...envelope, signatures: [{ ...envelope.signatures[0]!, sig: base64Encode(bytes) }] };
        const result = verifyAttestation(changed, { keys });
        expect(result.ok).toBe(false);
        if (!codes(result).includes('bad_attestation'))
          expect(codes(result)).toContain('envelope_signature_invalid');
      }),
      { numRuns: 300 },
    );
  });

  it('finds a changed payload type (it is signed too)', () => {
    const { envelope } = attested(4);
    const result = verifyAttestation({ ...envelope, payloadType: 'application/json' }, { keys });
    expect(codes(result)).toEqual(['bad_attestation']);
  });

  it('finds a statement re-signed with the right key but claiming PASSED for a risk verdict', () => {
    const { share, envelope } = attested(1);
    const forged = resigned(envelope, (s) => {
      s.predicate.verificationResult = 'PASSED';
    });
    expect(codes(verifyAttestation(forged, { keys }))).toContain('statement_mismatch');
    const consistent = resigned(envelope, (s) => {
      s.predicate.verificationResult = 'PASSED';
      s.predicate.verifiedLevels = ['RUNLEDGER_FLIGHT_SHEET:reconciliation@3.0.0'];
      s.predicate[RUNLEDGER_EXTENSION].verdict.outcome = 'pass';
    });
    expect(verifyAttestation(consistent, { keys }).ok).toBe(true);
    const against = verifyAttestation(consistent, { keys, share });
    expect(new Set(codes(against))).toEqual(new Set(['receipt_mismatch']));
    expect(against.findings.map((f) => f.message.split(' ')[0])).toEqual([
      'verificationResult',
      'verifiedLevels',
      'verdict',
    ]);
  });

  it('finds a statement of another receipt than the share JSON', () => {
    const { envelope } = attested(2);
    const { share } = attested(6);
    const result = verifyAttestation(envelope, { keys, share });
    expect(result.ok).toBe(false);
    expect(codes(result)).toContain('receipt_mismatch');
  });

  it('finds a log index that is not the receipt’s leaf', () => {
    const { envelope } = attested(2);
    const moved = resigned(envelope, (s) => {
      s.predicate[RUNLEDGER_EXTENSION].log.index = 3;
      s.predicate[RUNLEDGER_EXTENSION].receipt.orgSeq = 3;
    });
    expect(codes(verifyAttestation(moved, { keys }))).toEqual(['inclusion_invalid']);
  });

  it('reports an unreadable envelope or statement as bad_attestation', () => {
    for (const value of [
      null,
      [],
      { payloadType: 'x' },
      { ...attested(0).envelope, payload: '***' },
    ]) {
      expect(codes(verifyAttestation(value, { keys }))).toEqual(['bad_attestation']);
    }
    const notStatement = signEnvelope(
      'application/vnd.in-toto+json',
      encode.encode('{}'),
      envelopeSignerOf(owner),
    );
    expect(codes(verifyAttestation(notStatement, { keys }))).toEqual(['bad_attestation']);
  });

  it('never throws, whatever value stands in any field of a re-signed statement', () => {
    const { share, envelope } = attested(4);
    const statement = statementOf(envelope) as unknown as Record<string, unknown>;
    const paths: string[][] = [];
    const walk = (value: unknown, path: string[]) => {
      paths.push(path);
      if (typeof value === 'object' && value !== null)
        for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
    };
    walk(statement, []);
    fc.assert(
      fc.property(fc.constantFrom(...paths.slice(1)), fc.jsonValue(), (path, replacement) => {
        const copy = structuredClone(statement);
        let at = copy as Record<string, unknown>;
        for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
        at[path.at(-1)!] = replacement;
        const forged = signEnvelope(
          envelope.payloadType,
          encode.encode(JSON.stringify(copy)),
          envelopeSignerOf(owner),
        );
        const result = verifyAttestation(forged, { keys, share });
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });

  it('without keys checks everything but the signatures', () => {
    const result = verifyAttestation(attested(3, stranger).envelope, {});
    expect(result.ok).toBe(true);
    expect(result.authorship.status).toBe('not_checked');
  });

  it('states the verify package’s own version', () => {
    const pkg = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(VERIFIER_VERSION).toBe(pkg.version);
  });
});
