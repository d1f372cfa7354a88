/**
 * A receipt as an in-toto Statement v1 whose predicate is a SLSA Verification Summary (VSA v1):
 * the flight sheet version is the policy, the evidence the input attestations, the verdict the
 * result, and the receipt's place in its organization's log an extension field
 * (docs/attestations.md).
 */

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const VSA_PREDICATE_TYPE = 'https://slsa.dev/verification_summary/v1';
/** The predicate's extension field (VSA: extension field names are URIs). */
export const RUNLEDGER_EXTENSION = 'https://runledger.dev/attestation/receipt/v1';
/** The prefix of runledger's verified levels (custom SlsaResult values must not start SLSA_). */
export const LEVEL_PREFIX = 'RUNLEDGER_FLIGHT_SHEET:';
/**
 * `verifier.version.runledger`: the version of this package, whose receipt checks the server applies
 * before it signs (a test keeps it equal to package.json).
 */
export const VERIFIER_VERSION = '0.1.0';

export type VerdictOutcome = 'pass' | 'risk' | 'fail';
export type VerificationResult = 'PASSED' | 'FAILED';

export interface DigestSet {
  sha256: string;
}

export interface ResourceDescriptor {
  name?: string;
  uri?: string;
  digest?: DigestSet;
  mediaType?: string;
}

/** Where the receipt stands in its organization's Merkle log, with the proof of it. */
export interface LogPlace {
  /** The checkpoint's origin line, `<host>/orgs/<org_id>`. */
  origin: string;
  /** The receipt's leaf index, its org_seq. */
  index: number;
  treeSize: number;
  /** Hex root of the tree of treeSize leaves. */
  rootHash: string;
  /** The signed checkpoint (C2SP signed note) of that tree. */
  checkpoint: string;
  /** The RFC 9162 audit path of the leaf, hex, bottom-up. */
  inclusionProof: string[];
}

export interface ReceiptExtension {
  receipt: { id: string; orgId: string; orgSeq: number; runId: string };
  verdict: { outcome: VerdictOutcome; severity: string; score: number };
  approval: { decision: string; decidedAt: string };
  log: LogPlace;
}

export interface VerificationSummary {
  verifier: { id: string; version: Record<string, string> };
  timeVerified: string;
  resourceUri: string;
  policy: ResourceDescriptor & { uri: string; digest: DigestSet };
  inputAttestations: (ResourceDescriptor & { digest: DigestSet })[];
  verificationResult: VerificationResult;
  verifiedLevels: string[];
  [RUNLEDGER_EXTENSION]: ReceiptExtension;
}

export interface ReceiptStatement {
  _type: typeof STATEMENT_TYPE;
  subject: (ResourceDescriptor & { name: string; digest: DigestSet })[];
  predicateType: typeof VSA_PREDICATE_TYPE;
  predicate: VerificationSummary;
}

/** The parts of a run receipt's payload the statement names. */
export interface AttestedPayload {
  org_id: string;
  org_seq: number;
  minted_at: string;
  run: { id: string };
  flight_sheet: { id: string; slug: string; version: string; sha256: string };
  submission_sha256: string;
  evidence: readonly { id: string; kind: string; label: string; sha256: string }[];
  verdict: { outcome: VerdictOutcome; severity: string; score: number };
  approval: { decision: string; decided_at: string };
}

export interface StatementInput {
  receipt: { receipt_id: string; receipt_sha256: string; payload: AttestedPayload };
  /** PUBLIC_BASE_URL: the verifier's id and the root of every URI in the statement. */
  baseUrl: string;
  shareUrl: string;
  checkpoint: { checkpoint: string; tree_size: number; root_hash: string };
  inclusionProof: { leaf_index: number; tree_size: number; hashes: readonly string[] };
}

/** Only a pass verdict passes the flight sheet; risk and fail are FAILED whatever the approval. */
export function verificationResultOf(outcome: VerdictOutcome): VerificationResult {
  return outcome === 'pass' ? 'PASSED' : 'FAILED';
}

/** One level on runledger's own track, naming the sheet version that was met; else FAILED. */
export function verifiedLevelsOf(
  outcome: VerdictOutcome,
  sheet: { slug: string; version: string },
): string[] {
  return outcome === 'pass' ? [`${LEVEL_PREFIX}${sheet.slug}@${sheet.version}`] : ['FAILED'];
}

export const submissionSubjectName = (runId: string) => `${runId}/submission`;

export function buildReceiptStatement(input: StatementInput): ReceiptStatement {
  const { receipt, checkpoint, inclusionProof } = input;
  const p = receipt.payload;
  const base = input.baseUrl.replace(/\/+$/, '');
  const runUri = `${base}/runs/${encodeURIComponent(p.run.id)}`;
  return {
    _type: STATEMENT_TYPE,
    subject: [
      { name: receipt.receipt_id, digest: { sha256: receipt.receipt_sha256 } },
      { name: submissionSubjectName(p.run.id), digest: { sha256: p.submission_sha256 } },
    ],
    predicateType: VSA_PREDICATE_TYPE,
    predicate: {
      verifier: { id: base, version: { runledger: VERIFIER_VERSION } },
      timeVerified: p.minted_at,
      resourceUri: input.shareUrl,
      policy: {
        name: `${p.flight_sheet.slug}@${p.flight_sheet.version}`,
        uri: `${base}/flight-sheets/${encodeURIComponent(p.flight_sheet.id)}`,
        digest: { sha256: p.flight_sheet.sha256 },
      },
      // An uploaded file can be fetched (with a credential); inline evidence is in the run's list.
      inputAttestations: p.evidence.map((e) => ({
        name: e.id,
        ...(e.kind === 'file'
          ? { uri: `${runUri}/evidence/${encodeURIComponent(e.id)}/content` }
          : {}),
        digest: { sha256: e.sha256 },
      })),
      verificationResult: verificationResultOf(p.verdict.outcome),
      verifiedLevels: verifiedLevelsOf(p.verdict.outcome, p.flight_sheet),
      [RUNLEDGER_EXTENSION]: {
        receipt: { id: receipt.receipt_id, orgId: p.org_id, orgSeq: p.org_seq, runId: p.run.id },
        verdict: {
          outcome: p.verdict.outcome,
          severity: p.verdict.severity,
          score: p.verdict.score,
        },
        approval: { decision: p.approval.decision, decidedAt: p.approval.decided_at },
        log: {
          origin: checkpoint.checkpoint.split('\n', 1)[0] ?? '',
          index: inclusionProof.leaf_index,
          treeSize: checkpoint.tree_size,
          rootHash: checkpoint.root_hash,
          checkpoint: checkpoint.checkpoint,
          inclusionProof: [...inclusionProof.hashes],
        },
      },
    },
  };
}
