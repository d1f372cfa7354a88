import { canonicalJson } from '../canonical/json.js';
import { verifySharedReceipt, type SharedReceiptFindingCode } from '../ledger/shared-receipt.js';
import type { TrustedKey } from '../note/keyring.js';
import {
  buildReceiptStatement,
  RUNLEDGER_EXTENSION,
  type ReceiptStatement,
  type StatementInput,
} from './statement.js';

/**
 * The statement against the receipt it claims to state: the share JSON is verified on its own (hash,
 * id, inclusion, checkpoint), then every field the statement derives from the receipt's payload is
 * derived again from that payload and compared.
 */
export type ShareFindingCode =
  | SharedReceiptFindingCode
  /** A field of the statement differs from what the receipt's payload gives. */
  | 'receipt_mismatch';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The statement's fields that come from the receipt alone (not from the server's URLs or its log). */
function receiptFacts(s: ReceiptStatement) {
  const p = s.predicate;
  const ext = p[RUNLEDGER_EXTENSION];
  return {
    subject: s.subject.map((x) => [x.name, x.digest.sha256]),
    timeVerified: p.timeVerified,
    policy: [p.policy.name, p.policy.digest.sha256, p.policy.uri.split('/').at(-1)],
    inputAttestations: p.inputAttestations.map((a) => [a.name, a.digest.sha256]),
    verificationResult: p.verificationResult,
    verifiedLevels: p.verifiedLevels,
    receipt: ext.receipt,
    verdict: ext.verdict,
    approval: ext.approval,
    index: ext.log.index,
  };
}

export function matchShare(
  statement: ReceiptStatement,
  share: unknown,
  options: { keys?: readonly TrustedKey[]; receiptPrefix?: string },
): { code: ShareFindingCode; message: string }[] {
  const shared = verifySharedReceipt(share, options);
  const findings: { code: ShareFindingCode; message: string }[] = shared.findings.map((f) => ({
    code: f.code,
    message: `share: ${f.message}`,
  }));
  const receipt = isObject(share) && isObject(share.receipt) ? share.receipt : share;
  if (!isObject(receipt) || !isObject(receipt.payload)) return findings;
  let expected: ReceiptStatement;
  try {
    const ext = statement.predicate[RUNLEDGER_EXTENSION];
    expected = buildReceiptStatement({
      // Untrusted: a payload missing a field throws here and is reported below.
      receipt: receipt as unknown as StatementInput['receipt'],
      baseUrl: statement.predicate.verifier.id,
      shareUrl: statement.predicate.resourceUri,
      checkpoint: { checkpoint: ext.log.checkpoint, tree_size: 0, root_hash: '' },
      inclusionProof: { leaf_index: receipt.org_seq as number, tree_size: 0, hashes: [] },
    });
  } catch {
    return [...findings, { code: 'receipt_mismatch', message: 'the share payload lacks fields' }];
  }
  const have = receiptFacts(statement);
  const want = receiptFacts(expected);
  for (const key of Object.keys(want) as (keyof typeof want)[]) {
    if (canonicalJson(have[key]) !== canonicalJson(want[key])) {
      findings.push({
        code: 'receipt_mismatch',
        message: `${key} is ${JSON.stringify(have[key])}; the receipt gives ${JSON.stringify(want[key])}`,
      });
    }
  }
  return findings;
}
