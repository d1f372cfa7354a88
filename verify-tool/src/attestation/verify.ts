import { fromHex } from '../hash/hex.js';
import { leafHash } from '../merkle/hash.js';
import { verifyInclusion } from '../merkle/verify.js';
import { checkpointTime, parseCheckpoint } from '../note/checkpoint.js';
import { ed25519Impl } from '../note/ed25519.js';
import { keyIdHex } from '../note/keys.js';
import { keysValidAt, type TrustedKey } from '../note/keyring.js';
import { parseNote } from '../note/note.js';
import {
  checkSignedCheckpoint,
  type Authorship,
  type CheckpointFindingCode,
} from '../ledger/signed-checkpoint.js';
import { IN_TOTO_PAYLOAD_TYPE, openEnvelope, pae, type OpenedEnvelope } from './dsse.js';
import { readStatement } from './read-statement.js';
import { matchShare, type ShareFindingCode } from './match-share.js';
import {
  RUNLEDGER_EXTENSION,
  verificationResultOf,
  verifiedLevelsOf,
  type ReceiptStatement,
  type VerificationResult,
} from './statement.js';

/**
 * An attestation (a DSSE envelope holding a receipt's in-toto Statement) checked offline in four
 * steps: the envelope's signature by a trusted key, the statement's own consistency, the receipt's
 * inclusion in the signed checkpoint it names, and (given the share JSON) that it states the receipt.
 */
export type AttestationFindingCode =
  | CheckpointFindingCode
  | ShareFindingCode
  /** The envelope or its statement cannot be read, or is not a runledger receipt statement. */
  | 'bad_attestation'
  /** No trusted key (valid at the checkpoint's time) has the envelope's keyid. */
  | 'key_unknown'
  /** The envelope's signature over PAE(payloadType, payload) does not verify with that key. */
  | 'envelope_signature_invalid'
  /** The verification result or levels contradict the verdict the statement records. */
  | 'statement_mismatch'
  /** The audit path does not lead from the receipt to the checkpoint's root. */
  | 'inclusion_invalid';

export interface AttestationFinding {
  code: AttestationFindingCode;
  message: string;
}

export interface AttestationResult {
  ok: boolean;
  receipt_id: string | null;
  verification_result: VerificationResult | null;
  findings: AttestationFinding[];
  checkpoint: { origin: string; tree_size: number; root_hash: string } | null;
  authorship: Authorship;
  /** Whether a share JSON was compared with the statement. */
  share_checked: boolean;
}

export interface AttestationOptions {
  /** Trusted keys; without them neither the envelope's nor the checkpoint's signature is checked. */
  keys?: readonly TrustedKey[];
  /** The receipt's share JSON; with it the statement is compared with the receipt itself. */
  share?: unknown;
  receiptPrefix?: string;
}

/** The checkpoint's `time` line, which picks the keys valid when the attestation was signed. */
function signedAt(note: string): string | undefined {
  try {
    return checkpointTime(parseCheckpoint(parseNote(note).text));
  } catch {
    return undefined;
  }
}

function checkSignature(
  envelope: OpenedEnvelope,
  keys: readonly TrustedKey[],
  at: string | undefined,
): AttestationFinding[] {
  const message = pae(envelope.payloadType, envelope.body);
  const valid = keysValidAt(keys, at);
  let known = false;
  for (const { keyid, sig } of envelope.signatures) {
    for (const key of valid.filter((k) => keyIdHex(k.keyId) === keyid)) {
      known = true;
      if (sig !== null && ed25519Impl.verify(key.publicKey, message, sig)) return [];
    }
  }
  if (!known) {
    const ids = envelope.signatures.map((s) => s.keyid).join(', ') || 'none';
    return [
      {
        code: 'key_unknown',
        message: `no trusted key valid at ${at ?? 'an unknown time'} has the keyid ${ids}`,
      },
    ];
  }
  return [
    {
      code: 'envelope_signature_invalid',
      message: 'the envelope signature does not verify (PAE, Ed25519)',
    },
  ];
}

function checkConsistency(statement: ReceiptStatement): AttestationFinding[] {
  const p = statement.predicate;
  const ext = p[RUNLEDGER_EXTENSION];
  const findings: AttestationFinding[] = [];
  const expected = verificationResultOf(ext.verdict.outcome);
  if (p.verificationResult !== expected) {
    findings.push({
      code: 'statement_mismatch',
      message: `verificationResult ${p.verificationResult} contradicts verdict ${ext.verdict.outcome} (${expected})`,
    });
  }
  // policy.name is `<slug>@<version>`; a version never holds `@`.
  const name = p.policy.name ?? '';
  const at = name.lastIndexOf('@');
  const levels = verifiedLevelsOf(ext.verdict.outcome, {
    slug: name.slice(0, Math.max(at, 0)),
    version: at < 0 ? '' : name.slice(at + 1),
  });
  if (JSON.stringify(p.verifiedLevels) !== JSON.stringify(levels)) {
    findings.push({
      code: 'statement_mismatch',
      message: `verifiedLevels should be ${JSON.stringify(levels)}`,
    });
  }
  const subject = statement.subject[0];
  if (subject?.name !== ext.receipt.id || ext.log.index !== ext.receipt.orgSeq) {
    findings.push({
      code: 'statement_mismatch',
      message: 'the first subject must be the receipt, and the log index its org_seq',
    });
  }
  return findings;
}

function checkInclusion(statement: ReceiptStatement, keys: readonly TrustedKey[] | undefined) {
  const ext = statement.predicate[RUNLEDGER_EXTENSION];
  const { log } = ext;
  const checked = checkSignedCheckpoint(log.checkpoint, {
    originSuffix: `/orgs/${ext.receipt.orgId}`,
    size: log.treeSize,
    root: fromHex(log.rootHash) as Uint8Array,
    ...(keys === undefined ? {} : { keys }),
  });
  const findings: AttestationFinding[] = [...checked.findings];
  const receiptHash = fromHex(statement.subject[0]?.digest.sha256 ?? '');
  if (
    checked.checkpoint !== null &&
    receiptHash !== null &&
    !verifyInclusion(
      log.index,
      log.treeSize,
      leafHash(receiptHash),
      log.inclusionProof.map((h) => fromHex(h) as Uint8Array),
      checked.checkpoint.rootHash,
    )
  ) {
    findings.push({
      code: 'inclusion_invalid',
      message: `the inclusion proof does not lead from the receipt to the checkpoint's root`,
    });
  }
  if (checked.checkpoint !== null && checked.checkpoint.origin !== log.origin) {
    findings.push({
      code: 'origin_mismatch',
      message: 'log.origin is not the checkpoint’s origin',
    });
  }
  return { findings, checked };
}

export function verifyAttestation(
  envelopeJson: unknown,
  options: AttestationOptions,
): AttestationResult {
  const unreadable = (message: string): AttestationResult => ({
    ok: false,
    receipt_id: null,
    verification_result: null,
    findings: [{ code: 'bad_attestation', message }],
    checkpoint: null,
    authorship: { status: 'failed', message },
    share_checked: false,
  });
  const envelope = openEnvelope(envelopeJson);
  if (typeof envelope === 'string') return unreadable(envelope);
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE)
    return unreadable(`payloadType is not ${IN_TOTO_PAYLOAD_TYPE}`);
  const statement = readStatement(envelope.body);
  if (typeof statement === 'string') return unreadable(statement);
  const ext = statement.predicate[RUNLEDGER_EXTENSION];

  const findings =
    options.keys === undefined
      ? []
      : checkSignature(envelope, options.keys, signedAt(ext.log.checkpoint));
  findings.push(...checkConsistency(statement));
  const inclusion = checkInclusion(statement, options.keys);
  findings.push(...inclusion.findings);
  if (options.share !== undefined) {
    findings.push(...matchShare(statement, options.share, options));
  }
  const cp = inclusion.checked.checkpoint;
  return {
    ok: findings.length === 0,
    receipt_id: ext.receipt.id,
    verification_result: statement.predicate.verificationResult,
    findings,
    checkpoint: cp && { origin: cp.origin, tree_size: cp.size, root_hash: ext.log.rootHash },
    authorship: inclusion.checked.authorship,
    share_checked: options.share !== undefined,
  };
}
