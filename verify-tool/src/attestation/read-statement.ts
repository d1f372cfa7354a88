import { SHA256_HEX } from '../hash/sha256.js';
import {
  RUNLEDGER_EXTENSION,
  STATEMENT_TYPE,
  VSA_PREDICATE_TYPE,
  type ReceiptStatement,
} from './statement.js';

/**
 * A statement read from untrusted bytes: the fields runledger's verifier relies on are checked for
 * presence and type (the full shape is pinned by the JSON Schemas in the tests); the reason when not.
 */

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isHash = (v: unknown): v is string => typeof v === 'string' && SHA256_HEX.test(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

function hasDigest(v: unknown): boolean {
  return isObject(v) && isObject(v.digest) && isHash(v.digest.sha256);
}

function logProblem(log: unknown): string | null {
  if (!isObject(log)) return 'the log place is missing';
  const { origin, index, treeSize, rootHash, checkpoint, inclusionProof } = log;
  if (typeof origin !== 'string' || typeof checkpoint !== 'string' || !isHash(rootHash))
    return 'the log place needs origin, checkpoint and rootHash';
  if (!isCount(index) || !isCount(treeSize)) return 'the log place needs index and treeSize';
  if (!Array.isArray(inclusionProof) || !inclusionProof.every(isHash))
    return 'the log place needs inclusionProof, an array of 64-hex hashes';
  return null;
}

function extensionProblem(ext: unknown): string | null {
  if (!isObject(ext)) return `the predicate lacks ${RUNLEDGER_EXTENSION}`;
  const { receipt, verdict, approval } = ext;
  if (
    !isObject(receipt) ||
    typeof receipt.id !== 'string' ||
    typeof receipt.orgId !== 'string' ||
    typeof receipt.runId !== 'string' ||
    !isCount(receipt.orgSeq)
  )
    return 'the extension needs receipt {id, orgId, orgSeq, runId}';
  if (!isObject(verdict) || !['pass', 'risk', 'fail'].includes(verdict.outcome as string))
    return 'the extension needs verdict.outcome (pass, risk or fail)';
  if (!isObject(approval) || typeof approval.decision !== 'string')
    return 'the extension needs approval.decision';
  return logProblem(ext.log);
}

function predicateProblem(p: unknown): string | null {
  if (!isObject(p)) return 'the statement has no predicate object';
  if (!isObject(p.verifier) || typeof p.verifier.id !== 'string') return 'verifier.id is missing';
  if (typeof p.timeVerified !== 'string' || typeof p.resourceUri !== 'string')
    return 'timeVerified and resourceUri are required';
  const policy = p.policy as { uri?: unknown; name?: unknown };
  if (!hasDigest(policy) || typeof policy.uri !== 'string')
    return 'policy needs uri and digest.sha256';
  if (policy.name !== undefined && typeof policy.name !== 'string')
    return 'policy.name must be a string';
  if (!Array.isArray(p.inputAttestations) || !p.inputAttestations.every(hasDigest))
    return 'every input attestation needs digest.sha256';
  if (p.verificationResult !== 'PASSED' && p.verificationResult !== 'FAILED')
    return 'verificationResult must be PASSED or FAILED';
  if (!Array.isArray(p.verifiedLevels) || !p.verifiedLevels.every((l) => typeof l === 'string'))
    return 'verifiedLevels must be an array of strings';
  return extensionProblem(p[RUNLEDGER_EXTENSION]);
}

export function readStatement(body: Uint8Array): ReceiptStatement | string {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return 'the payload is not UTF-8 JSON';
  }
  if (!isObject(value)) return 'the statement is not a JSON object';
  if (value._type !== STATEMENT_TYPE) return `_type is not ${STATEMENT_TYPE}`;
  if (value.predicateType !== VSA_PREDICATE_TYPE)
    return `predicateType is not ${VSA_PREDICATE_TYPE}`;
  if (
    !Array.isArray(value.subject) ||
    value.subject.length === 0 ||
    !value.subject.every((s) => hasDigest(s) && typeof (s as { name?: unknown }).name === 'string')
  )
    return 'every subject needs a name and digest.sha256';
  const problem = predicateProblem(value.predicate);
  return problem ?? (value as unknown as ReceiptStatement);
}
