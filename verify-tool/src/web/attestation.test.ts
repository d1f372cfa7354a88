import { describe, expect, it } from 'vitest';
import { attestReceipt } from '../attestation/attest.js';
import { sigstoreBundle } from '../attestation/sigstore.js';
import { formatVkey, noteSigner } from '../note/keys.js';
import { trustVkey } from '../note/keyring.js';
import { attestationFixture, attestedChain, envelopeSignerOf } from '../testing/attestation.js';
import { verifyFile } from './verify-file.js';

const owner = noteSigner('runledger.example', new Uint8Array(32).fill(3));
const keys = [trustVkey(formatVkey(owner.name, owner.publicKey))];
const entries = attestedChain(5, 'org_w');
const envelope = attestReceipt(
  attestationFixture(entries, 'org_w', 2, owner).input,
  envelopeSignerOf(owner),
);
const blobOf = (value: unknown) => new Blob([JSON.stringify(value)]);
const statusOf = (report: { checks: { name: string; status: string }[] }) =>
  Object.fromEntries(report.checks.map((c) => [c.name, c.status]));

describe('verifyFile with an attestation', () => {
  it('checks a DSSE envelope and a Sigstore bundle holding it', async () => {
    for (const doc of [envelope, sigstoreBundle(envelope)]) {
      const report = await verifyFile(blobOf(doc), { keys });
      expect(report.subject).toBe('attestation');
      expect(report.verdict).toBe('intact');
      expect(report.headline).toContain(
        `receipt ${entries[2]!.receipt_id} (verificationResult FAILED)`,
      );
      expect(statusOf(report)).toEqual({
        'Attestation readable': 'pass',
        'Envelope signature by a trusted key': 'pass',
        'Verification result agrees with the verdict': 'pass',
        'Checkpoint origin, size and root': 'pass',
        'Inclusion in the signed tree': 'pass',
        'Statement matches the receipt': 'not_checked',
        'Signature by a trusted key': 'pass',
      });
    }
  });

  it('marks the envelope signature failed for an edited statement', async () => {
    const payload = Buffer.from(
      Buffer.from(envelope.payload, 'base64').toString('utf8').replace('"FAILED"', '"PASSED"'),
    ).toString('base64');
    const report = await verifyFile(blobOf({ ...envelope, payload }), { keys });
    expect(report.verdict).toBe('tampered');
    expect(report.findings.map((f) => [f.check, f.code])).toEqual([
      ['Envelope signature by a trusted key', 'envelope_signature_invalid'],
      ['Verification result agrees with the verdict', 'statement_mismatch'],
    ]);
  });

  it('without keys leaves both signatures not checked', async () => {
    const report = await verifyFile(blobOf(envelope));
    expect(report.verdict).toBe('intact');
    expect(statusOf(report)['Envelope signature by a trusted key']).toBe('not_checked');
    expect(statusOf(report)['Signature by a trusted key']).toBe('not_checked');
  });

  it('says an envelope that holds no receipt statement cannot be read as an attestation', async () => {
    const report = await verifyFile(blobOf({ ...envelope, payload: 'e30=' }), { keys });
    expect(report.verdict).toBe('unreadable');
    expect(report.findings[0]!.code).toBe('bad_attestation');
  });
});
