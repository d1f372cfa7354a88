import type { TrustedKey } from '../note/keyring.js';
import { verifyAttestation, type AttestationResult } from '../attestation/verify.js';
import {
  authorshipText,
  checkOf,
  checkRows,
  signatureRow,
  type CheckGroup,
  type CheckRow,
  type Report,
} from './report.js';

/**
 * A dropped attestation (docs/attestations.md): a DSSE envelope as `GET …/attestation` answers it,
 * or a Sigstore bundle holding one. The page checks the envelope's signature, the statement, and the
 * receipt's inclusion in the signed checkpoint; comparing it with the receipt itself needs the share
 * JSON too, which `runledger-verify attestation --share` does.
 */

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The DSSE envelope a document is or holds (a Sigstore bundle's dsseEnvelope), else null. */
export function attestationEnvelope(doc: unknown): Record<string, unknown> | null {
  const envelope = isObject(doc) && isObject(doc.dsseEnvelope) ? doc.dsseEnvelope : doc;
  return isObject(envelope) && 'payloadType' in envelope && 'signatures' in envelope
    ? envelope
    : null;
}

const ENVELOPE_CHECK = 'Envelope signature by a trusted key';
const RECEIPT_CHECK = 'Statement matches the receipt';

const ATTESTATION_CHECKS: readonly CheckGroup[] = [
  {
    name: 'Attestation readable',
    codes: ['bad_attestation'],
    passes:
      'a DSSE envelope holding a runledger receipt statement (in-toto Statement v1, SLSA VSA)',
  },
  {
    name: ENVELOPE_CHECK,
    codes: ['key_unknown', 'envelope_signature_invalid'],
    passes: 'the envelope is signed by the key its keyid names',
  },
  {
    name: 'Verification result agrees with the verdict',
    codes: ['statement_mismatch'],
    passes: 'verificationResult and verifiedLevels are what the stated verdict gives',
  },
  {
    name: 'Checkpoint origin, size and root',
    codes: ['bad_checkpoint', 'origin_mismatch', 'root_mismatch'],
    passes: 'the checkpoint is this organization’s and signs the stated tree',
  },
  {
    name: 'Inclusion in the signed tree',
    codes: ['inclusion_invalid'],
    passes: 'the inclusion proof leads from the receipt to the checkpoint’s root',
  },
];

export function attestationReport(result: AttestationResult, keysGiven: boolean): Report {
  const notChecked = new Map<string, string>();
  if (!keysGiven) notChecked.set(ENVELOPE_CHECK, 'no public key given');
  const unread = result.findings.some((f) => f.code === 'bad_attestation');
  const receiptRow: CheckRow = {
    name: RECEIPT_CHECK,
    status: 'not_checked',
    detail:
      'the page checks one file: compare it with the receipt’s share JSON with runledger-verify attestation --share share.json',
  };
  return {
    subject: 'attestation',
    verdict: unread ? 'unreadable' : result.ok ? 'intact' : 'tampered',
    headline: unread
      ? 'NOT VERIFIED: the file cannot be read as an attestation'
      : result.ok
        ? `INTACT: the attestation of receipt ${result.receipt_id ?? ''} (verificationResult ${result.verification_result ?? ''}) is signed and its receipt is in the signed ledger`
        : `TAMPERED: ${result.findings.length} finding(s); the failing checks are marked below`,
    facts: [
      ['Receipt', result.receipt_id ?? '(unreadable)'],
      ['verificationResult', result.verification_result ?? '(unreadable)'],
      [
        'Checkpoint',
        result.checkpoint === null
          ? 'none'
          : `${result.checkpoint.origin}, size ${result.checkpoint.tree_size}, root ${result.checkpoint.root_hash}`,
      ],
    ],
    checks: [
      ...checkRows(ATTESTATION_CHECKS, result.findings, notChecked),
      receiptRow,
      signatureRow(result.authorship),
    ],
    findings: result.findings.map((f) => ({
      check: checkOf(ATTESTATION_CHECKS, f.code),
      code: f.code,
      line: null,
      receipt_id: result.receipt_id,
      org_seq: null,
      message: f.message,
    })),
    findingsOmitted: 0,
    authorship: authorshipText(result.authorship),
  };
}

export function verifyAttestationDocument(
  envelope: Record<string, unknown>,
  keys: readonly TrustedKey[] | undefined,
): Report {
  const result = verifyAttestation(envelope, keys === undefined ? {} : { keys });
  return attestationReport(result, keys !== undefined);
}
